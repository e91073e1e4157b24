import type { host as en } from '../../en/checks/host.js';

export const host: typeof en = {
  'host.model': {
    title: '服务器型号与 profile 相符',
    why:
      '每个 profile 针对一代服务器编写：Atlas 800 A3 以 TP16 运行 16 个芯片并组成 A3 超节点，Atlas 800 A2 有 8 块 NPU。' +
      '在错误的服务器上运行时，profile 的 NPU 数量、HCCL 设置和并行布局会同时出错，启动很晚才失败（或只以一半规模运行）。' +
      '服务器的 DMI 产品名称说明了它属于哪一代。',
    reads: ['/sys/class/dmi/id/product_name', '/sys/class/dmi/id/sys_vendor', 'systeminformation system()'],
    fix: '运行为此服务器编写的 profile（qprep list --profiles 显示每个 profile 的系列），或到 profile 对应的服务器上运行。',
    noFamily: (p) => `profile ${p.profile} 没有指定 NPU 系列（npu.family: any）`,
    setFamily: '在 profile 中设置 npu.family（a2、a3、310p），或使用内置的部署 profile，以检查服务器型号',
    unknownModel: (p) => `服务器型号未知（${p.why}）：不作判断`,
    readDmi: '在 /sys/class/dmi/id 可读的环境中运行 qprep（在宿主机上，或挂载宿主机根目录并使用 --root）',
    generalServer: (p) => `服务器为 ${p.server}：300I Duo 和 200I Pro 卡插在通用服务器中，其型号不体现 NPU 系列`,
    cardsJudged: '此处无需处理：由 npu.count 和 npu.devices 判断这些卡',
    notAtlas: (p) => `服务器为 ${p.server}，不是 qprep 能识别的 Atlas A2/A3 型号：系列由 NPU 检查判断`,
    npusJudged: '此处无需处理：由 npu.count 和 npu.devices 判断此服务器的 NPU',
    matches: (p) => `${p.server} 是 ${p.family} 服务器，与 profile ${p.profile} 的预期一致`,
    mismatch: (p) => `${p.server} 是 ${p.family} 服务器，但 profile ${p.profile} 针对的是 ${p.wanted}`,
    useProfileFor: (p) => `使用针对 ${p.family} 的 profile（qprep list --profiles 显示每个 profile 的系列），或在 ${p.wanted} 服务器上运行此 profile`,
  },
  'host.shm': {
    title: '共享内存（/dev/shm）',
    why:
      'vLLM 通过 /dev/shm 在 API 服务、引擎核心和 worker 之间传递张量。除非用 --shm-size 指定，Docker 只给容器 64 MiB，' +
      '引擎核心随后在启动时崩溃并产生 core dump（vllm-ascend #3513）；部署指南启动容器时使用 --shm-size=1g 或更大。',
    reads: ['statfs(/dev/shm)'],
    fix: '用 --shm-size 启动容器（例如 --shm-size=16g）；在主机上以更大的 size 重新挂载 /dev/shm。',
    recreate: (p) => `用 docker run --shm-size=${p.size}g 重新创建容器`,
    missing: (p) => `${p.path} 不存在`,
    startWithShm: '用 --shm-size=16g 启动容器（Docker 随即挂载 /dev/shm）',
    cannotStat: (p) => `无法 stat ${p.problem}`,
    makeAccessible: (p) => `使 ${p.path} 可访问后重新运行`,
    tooSmall: (p) => `${p.path} 大小为 ${p.total}，至少应为 ${p.min}`,
    tooFull: (p) => `${p.path} 共 ${p.total}，仅剩 ${p.available} 可用，至少应有 ${p.min} 可用：是上次运行的残留吗？`,
    removeStale: (p) => `用 "ls -la ${p.path}" 查找残留的共享内存段，删除已退出进程留下的，或${p.grow}`,
    passed: (p) => `${p.path} 大小为 ${p.total}，可用 ${p.available}`,
  },
  'host.memory': {
    title: '主机可用内存',
    why:
      '权重加载到 NPU 的过程中要经过主机内存，引擎、分词器和 CPU worker 也驻留在主机内存中。' +
      '可用内存过少的主机（或容器内存限制）会在 30 分钟的加载过程中途被 OOM killer 终止。',
    reads: ['/proc/meminfo', '/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'],
    fix: '停止占用内存的程序，或提高容器内存限制（docker run --memory），或降低 profile 中的阈值。',
    cannotRead: (p) => `无法读取 ${p.problem}`,
    mountProc: (p) => `使 ${p.path} 可读（挂载 /proc）后重新运行`,
    noFields: (p) => `${p.path} 中没有 MemTotal/MemAvailable 行`,
    kernelFile: (p) => `检查 ${p.path} 是否为内核提供的文件`,
    available: (p) => `可用 ${p.available}，共 ${p.total}`,
    underLimit: (p) => `容器内存限制 ${p.limit} 下还剩 ${p.headroom}（主机可用 ${p.available}）`,
    tooLittle: (p) => `${p.where}，至少应有 ${p.min} 可用`,
    largerLimit: '释放主机内存，或以更大的 --memory 限制重新创建容器',
    stopHolders: '停止占用内存的进程（ps aux --sort=-rss | head），或降低 profile 中的 host.memoryMinAvailable',
  },
  'host.disk': {
    title: '存放权重的磁盘空间',
    why:
      'Qwen3.5-397B-A17B 的 w8a8 权重约 400 GB，BF16 约 800 GB；下载或转换中途空间耗尽会留下损坏的检查点。' +
      '部署指南把权重下载到 /root/.cache（最好是所有节点共享的目录）；profile 指定这些目录及其所需空间。',
    reads: ['statfs(<each host.disk path of the profile>)'],
    fix: '释放该文件系统上的空间，或把权重放到别处并在 profile 中设置 host.disk。',
    noDirectory: '未配置权重目录（profile 中的 host.disk 为空）',
    cannotMeasure: (p) => `无法测量可用空间：${p.problem}`,
    makeAccessible: (p) => `使 ${p.path} 可访问后重新运行`,
    free: (p) => `${p.path}${p.measuredOn !== null ? `（尚未创建；在 ${p.measuredOn} 上测量）` : ''}：可用 ${p.available}`,
    short: (p) => `${p.free}，至少应为 ${p.min}`,
    freeSpace: (p) => `释放 ${p.path} 所在文件系统的空间（du -xsh ${p.path}/* | sort -h | tail），或将 profile 中的 host.disk 指向将存放权重的目录`,
  },
};

import type { tuning as en } from '../../en/checks/tuning.js';

/** 须在宿主机上执行的修复命令前的说明 */
const onHost = (inContainer: boolean) => (inContainer ? '在宿主机上（不是在容器中）：' : '');

export const tuning: typeof en = {
  'cpu.governor': {
    title: 'CPU 调频策略（governor）',
    why:
      'vLLM 由主机线程调度 NPU 任务；节能型调频策略（ondemand、powersave、schedutil）会让 CPU 核在两次算子下发之间降频，' +
      '给每个 decode 步骤和 HCCL 集合通信带来时延抖动。vllm-ascend 调优指南将所有 CPU 设为 "performance"。',
    reads: [
      '/sys/devices/system/cpu/online',
      '/sys/devices/system/cpu/cpuN/cpufreq/scaling_governor',
      '/sys/devices/system/cpu/cpuN/cpufreq/scaling_available_governors',
    ],
    fix: '为每个 CPU 写入调频策略（qprep tune 会执行并记入日志），或在 BIOS 中将电源策略设为性能模式。',
    notPossibleList: (p) => `${p.path} 不是合法的 CPU 列表：${p.reason}（内核的 NR_CPUS）`,
    notCpulist: (p) => `${p.path} 不是 cpulist 格式`,
    cannotList: (p) => `无法列出 CPU：${p.problem}`,
    mountSys: (p) => `使 ${p.root} 可读（挂载 /sys）后重新运行`,
    noOnlineCpu: (p) => `在 ${p.root} 中未找到在线 CPU`,
    checkSysfs: (p) => `确认 ${p.root} 是主机的 sysfs`,
    cannotRead: (p) => `无法读取调频策略：${p.reason}`,
    readAsRoot: '以能读取 /sys/devices/system/cpu 的用户运行 qprep（加固的主机上需 root）',
    noCpufreq: (p) => `此处未暴露 cpufreq（没有 ${p.root}/cpu${p.cpu}/cpufreq）：CPU 频率由虚拟化层或容器运行时控制`,
    noCpufreqFix: '此处无需处理；在物理机上，加载 cpufreq 驱动（acpi-cpufreq、intel_pstate、cppc_cpufreq）或在 BIOS 中将电源策略设为性能模式',
    allRight: (p) => `全部 ${p.cpus} 个在线 CPU 都使用 ${p.governor} 调频策略${p.withoutCpufreq ? `（${p.withoutCpufreq} 个 CPU 没有 cpufreq）` : ''}`,
    onCpus: (p) => `cpu ${p.cpus} 为 ${p.governor}`,
    onCpusSeparator: '；',
    wrong: (p) => `${p.cpus} 个 CPU 中有 ${p.wrong} 个未使用 ${p.governor} 调频策略：${p.actual}`,
    wrongNotOffered: (p) => `${p.cpus} 个 CPU 中有 ${p.wrong} 个未使用 ${p.governor} 调频策略：${p.actual}；cpufreq 驱动只提供 ${p.offered}`,
    biosProfile: (p) => `${onHost(p.inContainer)}在 BIOS/固件中将电源策略设为最高性能，或加载提供 "${p.governor}" 的 cpufreq 驱动`,
    tune: (p) => `${onHost(p.inContainer)}sudo qprep tune --only cpu.governor   (or: echo ${p.governor} | sudo tee ${p.root}/cpu*/cpufreq/scaling_governor)`,
  },
  'sysctl.numa-balancing': {
    title: 'NUMA 自动均衡（kernel.numa_balancing）',
    why:
      '自动 NUMA 均衡会解除页面映射以采样访问模式，并在后台把页面在 NUMA 节点之间迁移。在多路昇腾服务器上，' +
      'vllm-ascend 已将 worker 绑定到靠近其 NPU 的 CPU，这只会带来额外的缺页和时延尖刺；调优指南设置 kernel.numa_balancing=0。',
    reads: ['/proc/sys/kernel/numa_balancing'],
    fix: 'sysctl -w kernel.numa_balancing=0（qprep tune；加 --persist 会写入 /etc/sysctl.d/90-qprep.conf）。',
    absent: (p) => `${p.path} 不存在：此内核没有自动 NUMA 均衡（CONFIG_NUMA_BALANCING 未开启）`,
    nothingToTurnOff: '无需处理：没有可关闭的 NUMA 均衡',
    cannotRead: (p) => `无法读取 kernel.numa_balancing：${p.reason}`,
    mountProc: (p) => `使 ${p.path} 可读（挂载 /proc）后重新运行`,
    right: (p) => `kernel.numa_balancing 为 ${p.value}`,
    wrong: (p) => `kernel.numa_balancing 为 ${p.value}，应为 ${p.target}`,
    tune: (p) => `${onHost(p.inContainer)}sudo qprep tune --only sysctl.numa-balancing   (or: sudo sysctl -w kernel.numa_balancing=${p.target})`,
  },
  'sysctl.swappiness': {
    title: '内存交换倾向（vm.swappiness）',
    why:
      '服务进程的页面被换出后，毫秒级的 decode 步骤会变成秒级的停顿。vllm-ascend 调优指南设置 vm.swappiness=0（建议 0 或 1），' +
      '让内核先回收页缓存，再换出匿名内存。',
    reads: ['/proc/sys/vm/swappiness', '/proc/meminfo'],
    fix: 'sysctl -w vm.swappiness=0（qprep tune；加 --persist 会写入 /etc/sysctl.d/90-qprep.conf）。',
    cannotRead: (p) => `无法读取 vm.swappiness：${p.reason}`,
    mountProc: (p) => `使 ${p.path} 可读（挂载 /proc）后重新运行`,
    right: (p) => `vm.swappiness 为 ${p.value}`,
    wrong: (p) => `vm.swappiness 为 ${p.value}，应不大于 ${p.max}${p.noSwap ? '（当前未配置 swap，添加 swap 后才会产生影响）' : ''}`,
    tune: (p) => `${onHost(p.inContainer)}sudo qprep tune --only sysctl.swappiness   (or: sudo sysctl -w vm.swappiness=${p.target})`,
  },
  'sched.migration-cost': {
    title: '调度器迁移开销（migration cost）',
    why:
      'sched_migration_cost_ns 决定任务被视为缓存热、留在原 CPU 上的时长。部署指南设置 kernel.sched_migration_cost_ns=50000' +
      '（范围 50000-100000）。从 5.13 起，内核把该参数移到了 /sys/kernel/debug/sched/migration_cost_ns，"sysctl -w" 在那里会失败，' +
      '设置便悄无声息地没有生效。',
    reads: ['/proc/sys/kernel/sched_migration_cost_ns', '/sys/kernel/debug/sched/migration_cost_ns'],
    fix: '将数值写入此内核实际存在的那个文件（qprep tune 会自动选择正确的文件）。',
    rootOnly: (p) => `${p.debugfs} 只有 root 可读（此内核把该参数放在 debugfs 中）`,
    notMounted: (p) => `${p.sysctl} 和 ${p.debugfs} 都不存在：内核把该参数放在 debugfs 中，而 debugfs 未挂载`,
    runAsRoot: '运行 "sudo qprep check" 以完成检查',
    mountDebugfs: 'sudo mount -t debugfs none /sys/kernel/debug，然后重新运行',
    cannotRead: (p) => `无法读取迁移开销：${p.reason}`,
    makeReadable: (p) => `使 ${p.path} 可读后重新运行`,
    right: (p) => `迁移开销为 ${p.value} ns（${p.path}）`,
    wrong: (p) => `迁移开销为 ${p.value} ns，应为 ${p.min}-${p.max} ns`,
    tune: (p) => `${onHost(p.inContainer)}sudo qprep tune --only sched.migration-cost   (or: ${p.manual})`,
  },
  'mem.jemalloc': {
    title: '用于 LD_PRELOAD 的 jemalloc',
    why:
      '部署指南预加载 jemalloc（export LD_PRELOAD=/usr/lib/$(uname -i)-linux-gnu/libjemalloc.so.2），以减少多线程 vLLM worker ' +
      '中内存分配器的锁竞争和碎片。该路径因架构和发行版而异（openEuler：/usr/lib64），LD_PRELOAD 中写错的条目会让 ld.so 打印 ' +
      '"cannot be preloaded" 并在没有它的情况下运行。',
    reads: [
      '/usr/lib/<arch>-linux-gnu/libjemalloc.so.2',
      '/lib/<arch>-linux-gnu/libjemalloc.so.2',
      '/usr/lib64/libjemalloc.so.2',
      '/lib64/libjemalloc.so.2',
      '/usr/local/lib/libjemalloc.so.2',
      '/usr/local/lib64/libjemalloc.so.2',
      '/usr/lib/libjemalloc.so.2',
      'ldconfig -p',
      'LD_PRELOAD',
    ],
    fix: '用发行版的包管理器安装 jemalloc，并预加载 qprep 给出的路径（qprep env 会打印 export 行）。',
    installAny: (p) => `安装 jemalloc（${p.library}）`,
    brokenPreload: (p) => `LD_PRELOAD 中的 ${p.entries} 在这台 ${p.arch} 主机上不存在；ld.so 会跳过它`,
    brokenPreloadFix: (p) => `${p.fix}   # qprep env 会打印适合这台主机的那一行`,
    cannotTell: (p) => `无法判断 ${p.library} 是否已安装：${p.problem}`,
    checkLdconfig: '确认 ldconfig 在这台主机上可用（ldconfig -p），然后重新运行',
    notInstalled: (p) => `未安装适用于 ${p.arch} 的 ${p.library}（已查找 ${p.searched}）`,
    installAndPreload: (p) => `${p.install}\nexport LD_PRELOAD=${p.path}:$LD_PRELOAD   # 写入启动脚本（qprep env 会打印这一行）`,
    found: (p) =>
      `在 ${p.path} 找到 ${p.library}${p.preloaded ? '，已预加载' : `；用 export LD_PRELOAD=${p.path}:$LD_PRELOAD 预加载它`}`,
  },
  'python.triton-ascend': {
    title: '310P 上不装 triton / triton-ascend',
    why:
      'Atlas 300I Duo / 200I Pro 部署指南要求卸载 triton-ascend 和 triton（pip uninstall -y triton-ascend triton）以避免依赖冲突：' +
      '310P 不是 Triton 的目标硬件，而这两个包随 vllm-ascend 的源码安装一起装入，因此用源码部署的 310P 主机上会有它们。',
    reads: ['启动脚本运行的 vllm（或 python3），在 PATH 中查找', '它的 #! 行', 'site-packages/*.dist-info', 'npu-smi info（NPU 系列）'],
    fix: '用运行 vllm 的那个 Python 卸载它们：python3 -m pip uninstall -y triton-ascend triton。',
    familySeen: (p) => `npu-smi 显示为 ${p.family}`,
    familyUnknown: 'npu-smi 未给出 NPU 系列',
    familyUnread: (p) => `npu-smi：${p.problem}`,
    notA310p: (p) => `只有 310P 要求不装 triton，而这台主机不是 310P（${p.seen}；profile npu.family 为 ${p.profileFamily}）`,
    notA310pFix: '此系列无需处理；若是 npu-smi 无法识别的 310P，请在 profile 中设置 npu.family: 310p',
    noPython: (p) => `此处未找到可检查的 vllm 或 python3（已查找 ${p.searched}）；请在服务容器内运行 qprep`,
    noSitePackages: (p) => `未找到 ${p.python} 的 site-packages 目录；请在安装了 vllm 的环境中运行 qprep`,
    inContainer: 'docker exec -it <container> qprep check --only python.triton-ascend',
    clean: (p) => `${p.python}（${p.via}）在 ${p.sitePackages} 中没有 triton 或 triton-ascend`,
    residual: (p) =>
      `${p.python} 的 ${p.paths} 仍然存在但没有 dist-info（pip uninstall 留下的残留）：在这台 310P 上 Python 仍会把它当作 triton 导入（${p.rule}）`,
    installed: (p) => `310P 主机上为 ${p.python} 安装了 ${p.found}；310P 部署指南要求卸载它们`,
  },
  'model.weights': {
    title: '模型权重完整',
    why:
      'vllm serve 要在启动几分钟后才加载权重：模型目录缺少 config.json、缺少索引中列出的分片（下载中断）、' +
      '在 --quantization ascend 下使用未量化的权重，或者 hub id 不在本地缓存中（vLLM 会下载数百 GB，离线时直接失败），' +
      '这些问题都在这里提前发现。NPU 内存是否放得下由 model.fit 判断。',
    reads: ['--launch 启动脚本（只读，从不执行）', '模型目录（config.json、*.safetensors、索引文件）', 'Hugging Face / ModelScope 缓存'],
    fix: '让 vllm serve 指向存放完整权重的目录，或下载缺失的文件。',
    shards: (p) => `${p.count} 个 safetensors 分片（${p.size}）`,
    otherWeights: (p) => `${p.files}（${p.size}）`,
    allInIndex: (p) => `${p.index} 中的 ${p.count} 个分片齐全`,
    partsSeparator: '，',
    namesNoModel: (p) => `${p.script} 没有指定可检查的模型（原因见 launch.script / launch.flags）`,
    placeholder: (p) => `${p.script} 的模型（${p.at}）是占位符 ${p.placeholder}：没有可查找的权重（launch.placeholders 会指出它）`,
    placeholderFix: (p) => `${p.script} 第 ${p.line} 行：vllm serve <权重目录或 hub id>`,
    dynamic: (p) => `${p.script} 的模型（${p.at}）在运行时才计算出来（${p.reason}）：无法检查权重`,
    dynamicFix: (p) => `${p.script} 第 ${p.line} 行：vllm serve /path/to/weights   # 直接写出路径`,
    relative: (p) => `模型 "${p.model}"（${p.at}）是相对路径：取决于启动脚本时所在的目录`,
    relativeFix: (p) => `${p.script} 第 ${p.line} 行：vllm serve /absolute/path/to/${p.path}`,
    cacheNotCaptured: (p) => `快照中没有记录 ${p.id} 的缓存条目（${p.searched}）：无法据此判断权重`,
    recordSnapshot: (p) => `用这个启动脚本录制快照：qprep snapshot -o host.json --launch ${p.script}`,
    downloadModelscope: (p) => `modelscope download --model ${p.id}   # 下载到 vllm 读取的 ModelScope 缓存（VLLM_USE_MODELSCOPE）`,
    downloadHuggingFace: (p) => `huggingface-cli download ${p.id}   # 下载到 vllm 读取的 Hugging Face 缓存`,
    notCached: (p) => `${p.id}（${p.at}）是 ${p.hub === 'modelscope' ? 'ModelScope' : 'Hugging Face'} 的模型 id，但不在本地缓存中（${p.searched}）`,
    downloadElsewhere: (p) => `${p.download}\n或者下载到一个目录并指向它：${p.script} 第 ${p.line} 行：vllm serve /path/to/${p.name}`,
    notCachedOffline: (p) => `${p.text}，且 hub 处于离线模式（HF_HUB_OFFLINE）：vllm 无法加载`,
    notCachedOnline: (p) => `${p.text}：vllm 会在启动时下载，大模型耗时很长，无法联网时会失败`,
    cachedAt: (p) => `${p.id}（缓存于 ${p.path}）`,
    dirNotCaptured: (p) => `快照中没有记录 ${p.path}：无法据此判断权重`,
    noDirectory: (p) => `模型目录 ${p.path}（${p.at}）不存在`,
    downloadTo: (p) =>
      `将权重下载到 ${p.path}，或修改 ${p.script} 第 ${p.line} 行${p.live ? '（在容器中：挂载该目录，docker run -v /root/.cache:/root/.cache）' : ''}`,
    gguf: (p) => `${p.path} 是 GGUF 文件`,
    cannotReadDir: (p) => `无法读取模型目录 ${p.path}：${p.problem}`,
    makeReadableDir: (p) => `确保 ${p.path} 是一个可读的权重目录`,
    configProblem: (p) => `${p.where}：${p.problem ?? 'config.json 不可读'}`,
    copyConfig: (p) => `将该模型的 config.json 复制到 ${p.path}（它随权重一起发布）`,
    indexProblem: (p) => `${p.where}：${p.problem}`,
    downloadIndex: (p) => `重新下载索引文件到 ${p.path}`,
    missingShards: (p) => `${p.where} 缺少索引中列出的 ${p.count} 个分片：${p.shards}`,
    downloadAgain: (p) => `重新下载 ${p.id}（缓存会续传缺失的文件）`,
    copyShards: (p) => `将缺失的分片复制到 ${p.path}，或重新下载模型`,
    noWeights: (p) => `${p.where} 中没有权重文件（*.safetensors、*.bin）`,
    downloadWeights: (p) => `将权重下载到 ${p.path}`,
    notQuantized: (p) => `指定了 --quantization ascend，但 ${p.where} 中没有 quant_model_description*.json：这不是昇腾量化权重`,
    useQuantized: (p) => `使用量化权重（例如 -w8a8 模型），或删除 ${p.at} 处的 --quantization ascend`,
    problems: (p) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 个问题）` : ''}`,
    fits: (p) => `${p.where}：${p.files}`,
  },
  'model.fit': {
    title: '部署放得下 NPU 内存：权重、KV 缓存、并发',
    why:
      'vLLM 要加载完权重（大模型需要半小时）才打印权重占用多少内存、还剩多少给 KV 缓存、能存多少 token、按 --max-model-len ' +
      '能同时服务多少请求；没有内存留给缓存、放不下一个 --max-model-len 长度的请求、或者其他进程占着 --gpu-memory-utilization ' +
      '所要的内存时，它拒绝启动。这里按已安装的 vllm-ascend 版本的算法，从 config.json、磁盘上的权重、启动参数和 npu-smi 算出同样的数字。',
    reads: ['--launch 启动脚本（只读，从不执行）', '模型的 config.json 和 safetensors 索引（或 qprep 的模型配置表）', 'npu-smi info', '脚本所用 Python 中 vllm-ascend 的版本'],
    fix: '给每个请求更多内存：更大的 --tensor-parallel-size、更短的 --max-model-len、更高的 --gpu-memory-utilization，或释放 NPU；具体数值见各条结论。',
    what: '内存规划',
    noModel: (p) => `${p.script} 没有指定可规划的模型（原因见 launch.script / launch.flags）`,
    unknownModel: (p) => `${p.at} 处的模型（${p.model}）不是字面写出的路径或 hub id：规划需要它`,
    unknownModelFix: (p) => `${p.script} 第 ${p.line} 行：vllm serve /path/to/weights   # 字面写出`,
    encoderOnly: (p) => `该服务是编码分离部署中的编码实例（ec_role ec_producer，${p.at}）：它不保留 KV cache，因此无需显存规划`,
    encoderOnlyFix: '此处无需处理；应规划消费其编码结果的 prefill/decode 实例（对其脚本运行 qprep check --launch）',
    callerSizes: (p) => `${p.script} 的并行规模由调用方给出或无效（launch.flags 指出是哪个）：无法规划`,
    callerSizesFix: (p) => `把规模字面写出，或连同填写 ${p.script} 的启动器一起检查：qprep check --launch launcher.sh --launch ${p.script}`,
    noMemorySize: 'npu-smi 没有显示该服务所用 NPU 的内存大小：无法规划',
    noMemorySizeFix: '在本节点运行 npu-smi info：每个 NPU 行都应显示其 HBM（310P 为 DDR）用量',
    summary: (p) =>
      `${p.model}（${p.basis === 'builtin' ? 'qprep 的配置表' : 'config.json'}）：每个 NPU 权重 ${p.weightsEstimated ? '约 ' : ''}${p.weights}，KV 缓存 ${p.kv}` +
      `（设备 ${p.device} 的 ${p.utilization} x ${p.visible}）` +
      (p.tokens !== null ? `：${p.tokens} 个 token，可同时容纳 ${p.concurrency} 个 ${p.maxModelLen} token 的请求` : ''),
    problems: (p) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项结论）` : ''}`,
    warnWithPlan: (p) => `${p.finding}；每个 NPU 权重 ${p.weightsEstimated ? '约 ' : ''}${p.weights}，KV 缓存 ${p.kv}`,
    alignment: (p) => `vllm-ascend 拒绝以 TP ${p.tp} 运行 ${p.model}：其线性注意力状态无法填满整数个注意力页（"Cannot align ssm_page_size and attn_page_size."）`,
    alignmentFix: (p) => `${p.script} 第 ${p.line} 行：换一个 --tensor-parallel-size   # 使 linear_num_value_heads 的状态恰好是整数个 K 页`,
    freeBelow: (p) =>
      `设备 ${p.device} 空闲 ${p.free}（共 ${p.visible}），少于 --gpu-memory-utilization ${p.utilization} 所要的 ${p.requested}：` +
      `vLLM 拒绝启动（"Free memory on device ... is less than desired GPU memory utilization"）；已有 ${p.inUse} 被占用`,
    freeBelowFix: (p) =>
      `停止设备 ${p.device} 上占用 ${p.inUse} 的进程（npu-smi info 列出它们）\n${p.script} 第 ${p.line} 行：--gpu-memory-utilization ${p.lower}   # 不超过空闲内存；KV 缓存随之变小`,
    weightsOver: (p) => `权重放不下：每个 NPU ${p.weights}，超过 vLLM 可用的 ${p.requested}（${p.utilization} x ${p.visible}）`,
    noCache: (p) =>
      `没有内存留给 KV 缓存：${p.requested} - 权重 ${p.weights} - 激活值与缓冲区 ${p.overhead}` +
      `${p.others !== null ? ` - 其他进程 ${p.others}` : ''} = ${p.kv}：vLLM 拒绝启动（"No available memory for the cache blocks"）`,
    largerTp: (p) => `${p.script} 第 ${p.line} 行：--tensor-parallel-size ${p.tp}   # 每节点 ${p.npus} 个 NPU；每个 NPU 的权重随之减少`,
    quantizedOrMore: '使用量化模型（W8A8），或更多 NPU（更大的 --tensor-parallel-size，或跨节点的 --pipeline-parallel-size）',
    raiseUtilization: (p) => `${p.script} 第 ${p.line} 行：--gpu-memory-utilization ${p.utilization}   # 放得下的最小值`,
    oneRequest: (p) =>
      `一个 --max-model-len ${p.maxModelLen} 的请求需要 ${p.needed} KV 缓存，超过剩余的 ${p.kv}：vLLM 拒绝启动` +
      `${p.fits > 0 ? `（它估计能放下 ${p.fits} 个 token）` : ''}`,
    shorterContext: (p) => `${p.script} 第 ${p.line} 行：--max-model-len ${p.maxModelLen}   # 一个请求能放下的最大长度`,
    smallerKvDtype: '或在 vllm-ascend 对该模型支持时使用 1 字节的 KV 缓存（--kv-cache-dtype int8）：每个 token 的字节数减半',
    notSized: (p) => `${p.model} 的 KV 缓存无法计算：${p.where ?? '没有 config.json，qprep 的配置表中也没有该模型'}${p.where !== null ? ' 缺少' : '，缺少'} ${p.keys}`,
    notSizedFix: (p) => (p.directory !== null ? `把该模型完整的 config.json 放入 ${p.directory}（它随权重一起提供）` : '下载权重（其 config.json 决定缓存大小），或在存有权重的节点上运行 qprep'),
    lowConcurrency: (p) => `KV 缓存（${p.tokens} 个 token）只能同时容纳 ${p.concurrency} 个 ${p.maxModelLen} token 的请求，少于 --max-num-seqs ${p.seqs}：长请求会排队`,
    contextForSeqs: (p) => `${p.script} 第 ${p.line} 行：--max-model-len ${p.maxModelLen}   # 该长度的 ${p.seqs} 个请求可同时放下`,
    fewerSeqs: (p) => `${p.script} 第 ${p.line} 行：--max-num-seqs ${p.seqs}   # 满长度时缓存能容纳的数量`,
    builtin: (p) =>
      p.local
        ? `规划从 qprep 的配置表（${p.model}）取了 config.json 缺少的 ${p.keys} 个值：这是估计`
        : `本节点没有权重：规划依据 qprep 的模型配置表（${p.model}）及其参数量，这是估计`,
    builtinFix: (p) => (p.directory !== null ? `把该模型完整的 config.json 放入 ${p.directory}，然后重新检查` : `把 ${p.id} 下载到本节点（其 config.json 和分片大小取代估计），然后重新检查`),
    streams: (p) =>
      `${p.sizes} 个图捕获尺寸 x ${p.resources} 个流 x ${p.factor}（${p.mode}）= ${p.streams} 个流，超过 vllm-ascend 预算的每设备 2048 个中的 ${p.limit} 个` +
      `（vllm_ascend/utils.py update_aclgraph_sizes，至 v0.20）：这些版本只捕获 ${p.max} 个尺寸；之后的版本全部捕获，在本机驱动（早于 HDK 25.5.1）上可能以 207008 "Stream resources are insufficient" 失败`,
    streamsFix: (p) =>
      `${p.script} 第 ${p.line} 行：--compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY"}'   # 每个尺寸一张图，而不是每层一张\n在 "cudagraph_capture_sizes" 中最多给出 ${p.max} 个尺寸`,
  },
  'model.load-time': {
    title: '权重能在启动超时内加载完',
    why:
      'vLLM 等待 VLLM_ENGINE_READY_TIMEOUT_S（默认 600 秒）让引擎加载权重、预估 KV 缓存并捕获图；从 200 MB/s 的网络存储读取 397 B ' +
      '模型需要半小时，启动会以 "Timed out waiting for engine core processes to start" 结束，或看起来卡在某个分片上。多节点部署中，' +
      '比慢节点早两分钟就绪的节点会因 HCCL_CONNECT_TIMEOUT 超时。本检查读取几秒钟真实的分片字节（尽量绕过页缓存）来测量存储速度，' +
      '并把预测的加载时间与脚本生效的超时比较。',
    reads: [
      '--launch 启动脚本（只读，从不执行）',
      '模型目录及其分片：每个文件系统最多读取一次，最多 2 GiB、最多 3 秒（--no-io-probe：不读取）',
      '/proc/self/mountinfo',
      'fincore（util-linux），查看页缓存中已有的内容',
      '脚本所用 Python 的 vllm/envs.py，读取其默认值',
    ],
    fix: '把 VLLM_ENGINE_READY_TIMEOUT_S 调到大于加载时间（export 行），把权重复制到本地 NVMe 盘，或在网络存储上用 --safetensors-load-strategy eager 加载。',
    noModel: (p) => `${p.script} 没有指定可读取权重的模型（launch.script / model.weights 说明原因）`,
    notLocal: '权重尚不在本地目录中（model.weights 说明原因）：无可测量的内容',
    unreadable: '无法读取权重目录（model.weights 说明原因）：无可测量的内容',
    noWeights: '权重目录中没有可读取的权重（model.weights 说明原因）',
    followWeights: '先修复 model.weights 报告的问题；权重放到本地目录后，本检查会测量其加载时间',
    probeOff: (p) => `I/O 探测已关闭（--no-io-probe）：未测量 ${p.bytes} 权重的加载时间`,
    probeOffFix: '去掉 --no-io-probe 再运行 qprep check（该探测每个文件系统只读一次，最多 2 GiB、最多 3 秒）',
    notCaptured: (p) => `快照中没有 ${p.directory} 的读取测量值：无法据此估算加载时间`,
    recordAgain: (p) => `用此脚本录制快照：qprep snapshot -o host.json --launch ${p.script}`,
    probeFailed: (p) => `无法读取权重来测量其存储速度：${p.problem}`,
    probeFailedFix: (p) => `让运行 qprep（以及 vllm）的用户可以读取 ${p.directory} 下的分片，然后重新检查`,
    nothingRead: (p) => `存储（${p.storage}）在 ${p.seconds} 秒内没有返回任何权重字节：vllm 无法加载权重`,
    nothingReadFix: (p) => `检查 ${p.mountPoint} 的挂载（其服务器、网络、dmesg），然后重新运行 qprep check`,
    storageMounted: (p) => `${p.filesystem} ${p.source}（挂载于 ${p.mountPoint}）`,
    storageType: (p) => p.filesystem,
    storageUnknown: '类型未知的文件系统',
    estimate: (p) => `从 ${p.storage} 以 ${p.rate} 读取 ${p.bytes} 权重约需 ${p.seconds} 秒`,
    timeout: (p) => `${p.variable} ${p.seconds} 秒（${p.origin}）`,
    originScript: (p) => p.at,
    originEnvironment: '继承自环境变量',
    originDefault: (p) => (p.version ? `vLLM ${p.version} 的默认值` : '已安装 vLLM 的 envs.py 中的默认值'),
    originDefaultUnread: (p) => (p.version ? `vLLM 的默认值；未读取到 vLLM ${p.version} 的 envs.py` : 'vLLM 的默认值；未找到已安装的 vLLM'),
    originDefaultOf: (p) => `${p.component} 的默认值`,
    originFixed: (p) => `vLLM ${p.version ?? '（已安装版本）'} 中固定不变，它不读取 VLLM_ENGINE_READY_TIMEOUT_S`,
    over: (p) => `${p.estimate}，超过 ${p.timeout}：权重加载完之前 vllm 就会放弃（"Timed out waiting for engine core processes to start"）`,
    overHalf: (p) => `${p.estimate}，超过 ${p.timeout} 的一半：KV 缓存预估和图捕获在加载之后进行，也在同一等待时间内`,
    within: (p) => `${p.estimate}，在 ${p.timeout} 之内`,
    cachedRead: (p) => `${p.text}；但探测读取由页缓存提供：未测到存储本身的速度，重启后的启动会从存储读取`,
    cacheUnknown: (p) => `${p.text}；无法判断探测读取是否由页缓存提供（${p.why}）：存储可能更慢`,
    sparseRead: (p) => `${p.text}；但探测读取中至少 ${p.holes} 是稀疏分片文件的空洞，不经过存储：未测到存储本身的速度`,
    stalled: (p) => `${p.text}（有一次读取在 ${p.seconds} 秒内没有返回）`,
    timeoutComputed: (p) => `${p.text}；${p.at} 处的 VLLM_ENGINE_READY_TIMEOUT_S 在运行时才计算，因此按默认值判断`,
    timeoutNotNumber: (p) => `${p.at} 处的 VLLM_ENGINE_READY_TIMEOUT_S 为 "${p.value}"，不是整数秒：vllm 无法以此启动`,
    timeoutIgnored: (p) => `${p.text}；${p.at} 设置了 VLLM_ENGINE_READY_TIMEOUT_S，但 vLLM ${p.version ?? '（已安装版本）'} 不读取它（该变量随 vllm-project/vllm PR #27444 引入）`,
    exportAt: (p) => `${p.script} 第 ${p.line} 行：export VLLM_ENGINE_READY_TIMEOUT_S=${p.value}   # 估算加载时间的 2.5 倍：之后还有预估与图捕获`,
    exportBefore: (p) => `${p.script}：export VLLM_ENGINE_READY_TIMEOUT_S=${p.value}   # 放在 vllm serve（第 ${p.line} 行）之前；估算加载时间的 2.5 倍`,
    upgradeVllm: (p) => `vLLM ${p.version ?? '（已安装版本）'} 固定等待 600 秒：升级到读取 VLLM_ENGINE_READY_TIMEOUT_S 的 vLLM（vllm-project/vllm PR #27444），或缩短加载时间：`,
    copyLocalTo: (p) => `or: 把权重复制到本地盘：cp -rL ${p.source} ${p.target}   # ${p.disk}，剩余 ${p.free}；然后 ${p.script} 第 ${p.line} 行：vllm serve ${p.target}`,
    copyLocal: (p) => `or: 把权重复制到本地 NVMe 盘：cp -rL ${p.source} /path/to/nvme/${p.name}；然后 ${p.script} 第 ${p.line} 行：vllm serve /path/to/nvme/${p.name}`,
    eager: (p) =>
      `or: ${p.script} 第 ${p.line} 行：vllm serve ... --safetensors-load-strategy eager   # 按顺序读取整个文件，而不是内存映射的缺页读取（${p.filesystem} 对后者很慢；vllm-project/vllm PR #24469）`,
    planStorage: (p) =>
      `存储：${p.storage}（${p.kind}）：${p.method}在 ${p.seconds} 秒内读取 ${p.read}` +
      `${p.opens > 0 && p.perShard !== null ? `；打开 ${p.opens} 个分片，每个 ${p.perShard} 毫秒（中位数）` : ''}` +
      `${p.resident !== null ? `；当前页缓存中有 ${p.resident} 的权重` : ''}`,
    methodDirect: '用 O_DIRECT 绕过页缓存',
    methodUncached: '从页缓存中没有任何页的文件（fincore）',
    methodBuffered: '经由页缓存',
    planLine: (p) => `${p.variable} = ${p.value}（${p.origin}）：${p.mustExceed}`,
    planValue: (p) => (p.unit === 'ms' ? `${Math.round(p.seconds * 1000)} 毫秒` : `${p.seconds} 秒`),
    planUnusable: (p) => `"${p.written}"，未求值`,
    mustExceedEngineReady: (p) => `必须大于本节点的加载时间${p.seconds !== null ? `（约 ${p.seconds} 秒）` : ''}，再加上 KV 缓存预估和图捕获的时间`,
    mustExceedHcclConnect: '必须大于第一个与最后一个节点完成加载的时间差（qprep aggregate 比较各节点）',
    mustExceedHcclExec: '在加载前已建立通信域时，也必须大于该时间差，以及最长的集合通信',
    mustExceedRpc: '必须大于 API server 到引擎的最长调用；与加载无关',
    mustExceedKvConnect: '每张 decode 卡约 500 毫秒，用于建立到它们的 KV 连接（vllm-ascend 指南：规则 mooncake.connect-timeout）；与加载无关',
    mustExceedKvTransfer: '必须大于 RDMA 重传超时乘以其 7 次重试（vllm-ascend 指南：规则 mooncake.transfer-timeout）；与加载无关',
  },
  'tune.journal': {
    title: 'qprep tune 日志',
    why:
      'qprep tune 在改动任何设置之前，会先把每项设置的旧值写入日志。被中止的调优、或撤销失败的调优会让设置处于半应用状态：' +
      '部分 CPU 是一种调频策略、部分是另一种，sysctl 改了却未经验证。此检查找出这样的日志，以便用 qprep rollback 恢复主机；' +
      '否则说明当前有哪些 qprep 改动在生效。',
    reads: ['/var/lib/qprep/journal.json'],
    fix: 'sudo qprep rollback 会按日志恢复旧值（包括被中断的调优留下的），然后归档该日志。',
    noJournal: 'qprep tune 在此没有生效中的改动（没有日志）',
    rootOnly: (p) => `${p.journal} 只有 root 可读`,
    runAsRoot: '运行 "sudo qprep check" 以完成检查',
    cannotRead: (p) => `无法读取调优日志：${p.reason}`,
    makeReadable: (p) => `使 ${p.journal} 可读后重新运行`,
    damaged: (p) => `调优日志已损坏：${p.reason}`,
    restoreByHand: (p) => `按 ${p.journal} 中的记录手动恢复，然后把它移开：sudo mv ${p.journal} ${p.journal}.damaged`,
    unfinished: (p) =>
      `"${p.command}" 于 ${p.startedAt} 开始，${p.interrupted ? '没有完成（被中断，或正在运行）' : '失败且未能撤销全部改动'}：` +
      `${p.changes} 项改动可能处于半应用状态`,
    rollback: (p) => `${p.rollback}   # 按 ${p.journal} 恢复旧值`,
    nothingInEffect: 'qprep tune 在此没有生效中的改动',
    inEffect: (p) => `自 ${p.since} 起由 qprep tune 修改的 ${p.changes} 项设置正在生效（撤销：${p.rollback}）`,
  },
};

import type { npu as en } from '../../en/checks/npu.js';

export const npu: typeof en = {
  'npu.cann': {
    title: 'CANN 工具包与驱动匹配',
    why:
      '每个 vllm-ascend 版本固定一个 CANN 版本，每个 CANN 只能运行在与之同期发布的驱动上：驱动的 version.info 列出它接受的 CANN 内部版本，' +
      'CANN 的安装记录列出它支持的驱动。比宿主机驱动新的 CANN 镜像会很晚才失败，例如 DeepSeek-V3.2 使用 CANN 8.3.RC2 运行在 24.1 驱动上，会一直卡住直到 "watchdog timeout"。' +
      '文件看不出来的已知问题组合记录在一张故障报告表中。profile 可以指定部署所需的最低 CANN 版本（npu.minCann）。必需项。' +
      '没有 CANN 的裸主机会被跳过：工具包随 vllm-ascend 镜像提供。',
    reads: [
      'ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH',
      '<toolkit>/<arch>-linux/ascend_toolkit_install.info (ascend-toolkit/latest, /usr/local/Ascend/cann, cann-<version>, nnae), or a component version.info',
      '<driver>/version.info',
    ],
    fix: '使用为已装驱动制作的 vllm-ascend 镜像（或 CANN 版本），或将驱动和固件升级到 CANN 发布说明中注明的 HDK。',
    noneOnHost: (p) => `此主机上没有 CANN 工具包${p.notes !== null ? `（${p.notes}）` : ''}；它随 vllm-ascend 镜像提供：请在容器内运行 qprep 检查`,
    checkInContainer: '在 vLLM 运行的地方检查：docker exec <container> qprep check --only npu.cann（若 vLLM 就在此主机上运行，则在此安装 CANN）',
    noneInContainer: (p) => `此容器中没有 CANN 工具包${p.notes !== null ? `（${p.notes}）` : ''}`,
    useImage: '使用 vllm-ascend 镜像（quay.io/ascend/vllm-ascend），或安装 CANN 并 source /usr/local/Ascend/ascend-toolkit/set_env.sh',
    wrongArch: (p) => `${p.home} 下的 CANN ${p.version} 是为 ${p.arch} 构建的，而此主机为 ${p.hostArch}`,
    installArch: (p) => `安装 ${p.arch} 版的 CANN 软件包（或使用此架构的镜像）`,
    tooOld: (p) => `${p.home} 下的 CANN ${p.version} 低于 profile ${p.profile} 要求的最低版本 ${p.minimum}`,
    newerImage: (p) => `使用基于 CANN ${p.minimum} 或更新版本构建的 vllm-ascend 镜像（其安装页面注明了所用 CANN），或安装该 CANN 并 source 其 set_env.sh`,
    noDriver: (p) => `${p.home} 下的 CANN ${p.version}；没有可对照的驱动版本（驱动 version.info 不可读，npu-smi 不可用）`,
    readDriver: '先让驱动版本可读（见 npu.driver-version），然后重新运行',
    pair: (p) => `CANN ${p.version}${p.inner ? `（${p.inner}）` : ' '}与驱动 ${p.driver}${p.driverInner ? `（${p.driverInner}）` : ''}`,
    driverAccepts: (p) => `驱动接受 CANN ${p.list}`,
    cannSupports: (p) => `CANN 支持驱动 ${p.list}`,
    unsupported: (p) => `${p.pair} 不是受支持的组合：${p.lists}`,
    imageForDriver: '使用为此驱动制作的 vllm-ascend 镜像，或将驱动和固件升级到 CANN 发布说明中注明的 HDK 版本',
    knownToFail: (p) => `${p.pair} 已知会失败："${p.symptom}"`,
    reportedFailure: (p) => `${p.pair} 有故障报告："${p.symptom}"`,
    declaredBy: (p) => `由${p.by.map((by) => (by === 'driver' ? '驱动' : by)).join('和')}声明兼容`,
    undeclared: '两个文件都没有声明对方；没有已知故障',
    fits: (p) => `${p.pair}：${p.how}${p.notes !== null ? `（注意：${p.notes}）` : ''}`,
  },
  'npu.driver-version': {
    title: '驱动版本（version.info 与 npu-smi 一致，且不低于 profile 的最低版本）',
    why:
      'CANN 通过 driver/version.info 判断所运行的驱动，而 npu-smi 报告的是实际加载的驱动。两者不同时，说明 version.info 不是宿主机的' +
      '（打包进镜像的副本，或升级未完成），或 npu-smi 属于另一套驱动，CANN 的兼容性判断就建立在错误的版本上："driver version inconsistency" 类问题大多如此。' +
      'profile 可以指定部署所需的最低驱动版本（npu.minDriver）：每个 vllm-ascend 镜像带一个 CANN，每个 CANN 版本都注明了所需的 HDK。必需项。',
    reads: ['<driver>/version.info（驱动目录取自 /etc/ascend_install.info，默认 /usr/local/Ascend/driver）', 'npu-smi info（Version:）'],
    fix: '把宿主机的 driver/version.info 挂载进容器，或完成驱动升级（重装驱动包并重启）；低于 profile 最低版本时，升级驱动和固件（Ascend HDK）。',
    tooOld: (p) => `驱动 ${p.version}（${p.path}）低于 profile ${p.profile} 要求的最低版本 ${p.minimum}`,
    upgrade: (p) =>
      `在宿主机上把 NPU 驱动和固件（Ascend HDK）升级到 ${p.minimum} 或更新：先 Ascend-hdk-*-npu-firmware_*.run --full，再 Ascend-hdk-*-npu-driver_*.run --full，然后重启；或改用为驱动 ${p.version} 制作的镜像`,
    addMount: (p) => `在 docker run 中加上 ${p.flag}`,
    reinstall: '重装 NPU 驱动包（Ascend-hdk-*-npu-driver_*.run --full）',
    cannotRead: (p) => `无法读取驱动版本：${p.reason}`,
    noVersion: (p) => `没有驱动版本：${p.reason}`,
    namesNone: (p) => `${p.path} 中没有驱动版本（没有 Version= 或 package_version= 行）`,
    damaged: '重装 NPU 驱动包；该文件已损坏',
    unconfirmed: (p) => `据 ${p.path}，驱动为 ${p.version}；npu-smi 无法确认${p.problem === null ? '（其表格中没有版本）' : `：${p.problem}`}`,
    makeNpuSmiWork: '先让 npu-smi 正常工作（见 npu.smi），然后重新运行',
    disagree: (p) => `据 ${p.path}，驱动为 ${p.version}，但 npu-smi 报告的驱动为 ${p.loaded}`,
    notHostsFile: (p) => `容器中的 ${p.path} 不是宿主机的：在 docker run 中加上 ${p.flag}（npu-smi 也要从宿主机挂载）`,
    unfinishedUpgrade: '驱动升级未完成，或 npu-smi 属于另一套安装：重装驱动包并重启',
    agree: (p) =>
      `驱动 ${p.version}${p.inner ? `（${p.inner}）` : ''}；version.info 与 npu-smi 一致${p.minimum !== null ? `，不低于 ${p.minimum}（profile ${p.profile}）` : ''}`,
  },
  'npu.firmware-version': {
    title: '固件版本与驱动匹配',
    why:
      '驱动和固件成对发布：驱动声明它支持的固件范围（compatible_version_fw），固件声明它支持的驱动（compatible_version_drv），' +
      'npu-smi -t board 打印驱动自身的判断（Compatibility OK/NOK）。不匹配通常发生在只升级了驱动而没有升级固件之后。' +
      '建议项而非必需项：驱动安装程序自己会拒绝大多数不匹配的组合，漏网的组合会在 npu.health 中暴露；本检查指出原因。',
    reads: ['npu-smi info -t board -i <card>', '<firmware>/version.info', '<driver>/version.info'],
    fix: '安装与已装驱动配套的固件包（同一 HDK 版本），然后重启。',
    notVisible: '在此容器中看不到固件版本（npu-smi -t board 没有给出，部署指南也不挂载 /usr/local/Ascend/firmware）；请在宿主机上运行 qprep 检查',
    onHost: '在宿主机上：qprep check --only npu.firmware-version',
    noFirmware: (p) => `没有固件版本：${p.file ?? 'version.info 中没有'}；npu-smi -t board：${p.board ?? '没有给出'}`,
    installFirmware: '安装与驱动同一 HDK 版本的固件包（Ascend-hdk-*-npu-firmware_*.run --full），然后重启',
    notCompatible: (p) => `驱动报告固件 ${p.firmware} 不兼容（npu-smi info -t board：Compatibility NOK）`,
    installFirmwareOf: (p) => `安装与驱动 ${p.driver ?? '（已装驱动）'} 同一 HDK 版本的固件包，然后重启`,
    driverTakes: (p) => `驱动 ${p.driver} 支持固件 ${p.ranges}`,
    firmwareTakes: (p) => `固件 ${p.firmware} 支持驱动 ${p.ranges}`,
    doesNotFit: (p) => `固件 ${p.firmware} 与驱动 ${p.driver} 不匹配：${p.ranges}`,
    withinRange: (p) => `在${p.by.map((by) => (by === 'driver' ? '驱动' : by === 'firmware' ? '固件' : by)).join('和')}声明的范围内`,
    noRange: '两个文件都没有声明范围',
    fits: (p) => `固件 ${p.firmware}，驱动 ${p.driver}：${p.how}${p.compatibility ? `；npu-smi Compatibility ${p.compatibility}` : ''}`,
  },
  'npu.driver-files': {
    title: '驱动文件（容器中则为其挂载）',
    why:
      'npu-smi、CANN 和 torch_npu 会加载驱动的用户态库（driver/lib64、/usr/local/dcmi），并读取 driver/version.info 和 /etc/ascend_install.info。' +
      '在容器中，每一项都必须像部署指南那样从宿主机 bind mount 进来：缺少库会报 "libascend_hal.so: cannot open shared object file"；' +
      '打包进镜像的副本在下次驱动升级后就会过时，因此存在但不是挂载的文件也判为失败。必需项。',
    reads: [
      '/usr/local/Ascend/driver/lib64, /usr/local/Ascend/driver/version.info, /etc/ascend_install.info, /usr/local/dcmi, npu-smi, hccn_tool',
      '200I Pro：其部署指南中的库、配置文件和守护进程',
      '/proc/self/mountinfo（在容器中）',
    ],
    fix: '在 docker run 中加上部署指南里缺少的 -v 参数；在主机上重装 NPU 驱动包。',
    missing: '缺失',
    dockerMadeDirectory: '是目录而不是文件（宿主机上没有该文件，docker 因此创建了空目录）',
    notFile: (p) => `是 ${p.kind}，不是文件`,
    notDirectory: (p) => `是 ${p.kind}，不是目录`,
    emptyDirectory: '是空目录',
    copyInImage: (p) => `存在，但不是从宿主机挂载的（是镜像 ${p.fsType} 根文件系统中的副本）`,
    cannotTellMounts: (p) => `无法判断驱动文件是否从宿主机挂载：${p.reason}`,
    readMountinfo: '让容器内的 /proc/self/mountinfo 可读（默认可读；检查 seccomp/AppArmor 配置）后重新运行',
    path: (p) => `${p.path} ${p.problem}`,
    notUsable: (p) => `${p.inContainer ? '部署指南挂载的 ' : ''}${p.total} 个驱动路径中有 ${p.count} 个不可用：${p.paths}`,
    addFlags: (p) => `在 docker run 中加上 ${p.flags}`,
    reinstall: '重装 NPU 驱动包（Ascend-hdk-*-npu-driver_*.run --full），它会创建这些文件',
    mounted: (p) => `${p.count} 个驱动路径从宿主机挂载（${p.paths}）`,
    present: (p) => `${p.count} 个驱动路径位于 ${p.root} 和 /usr/local 下（${p.paths}）`,
  },
  'npu.tools': {
    title: 'npu-smi 与 hccn_tool 可找到',
    why:
      '所有 NPU 检查、vllm-ascend 自身的健康探测和 CPU 绑核都要运行 npu-smi；Mooncake/HIXL 通过 hccn_tool 获取 A2、A3 NPU 的设备 IP。' +
      '容器中若未挂载，二者都不在 PATH 中（"bash: /usr/local/bin/npu-smi: No such file or directory"），有些主机上 npu-smi 位于 /usr/local/sbin。' +
      '必需项：缺少它们就无法评估节点；没有参数面网络的 310P 系列不要求 hccn_tool。',
    reads: ['PATH, /usr/local/sbin, /usr/local/bin (npu-smi)', 'PATH, /usr/local/Ascend/driver/tools (hccn_tool)'],
    fix: '在容器中加上部署指南中 npu-smi 和 hccn_tool 的 -v 挂载参数；在主机上安装 NPU 驱动包，二者均随驱动提供。',
    notIn: (p) => `${p.tool}（不在 PATH 中，也不在 ${p.dirs} 中）`,
    notFound: (p) => `找不到：${p.tools}`,
    addFlags: (p) => `在 docker run 中加上 ${p.flags}`,
    installDriver: '安装 NPU 驱动包（其中包含 npu-smi 和 hccn_tool），或将其所在目录加入 PATH',
    inRootTree: (p) => `；${p.root} 下的主机有 ${p.paths}，但命令在 qprep 自身的环境中运行`,
    foundAt: (p) => `${p.tool} 位于 ${p.path}`,
    hccnNotNeeded: (p) => `没有 hccn_tool（${p.family} 系列${p.pro ? '、200I Pro ' : ''}不需要）`,
  },
  'npu.devices': {
    title: 'NPU 设备节点',
    why:
      '运行时要为每块 NPU 打开 /dev/davinciN，并打开各控制设备（/dev/davinci_manager、/dev/devmm_svm、/dev/hisi_hdc；200I Pro 上则为 /dev/ascend_manager 和 /dev/user_config）。' +
      '在容器中每个设备都必须用 --device 传入；在该路径上创建的普通文件（误写的 -v）不是设备。' +
      '缺少节点会很晚才暴露，表现为 "rtGetDeviceCount ... no valid device" 或 "open device 0 failed"：必需项。',
    reads: ['/dev（列目录）', '/dev/davinci*, /dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc, /dev/ascend_manager, /dev/user_config（stat）', 'npu-smi info'],
    fix: '在容器中加上缺少的 --device 参数；在主机上重新加载 NPU 驱动（设备节点由驱动创建）。',
    cannotList: (p) => `无法列出设备节点：${p.problem}`,
    mountDev: '挂载 /dev（或在 /dev 可读的环境中运行 qprep）后重新运行',
    missing: '缺失',
    notCharDevice: (p) => `是 ${p.kind}，不是字符设备`,
    missingListed: '缺失（npu-smi 列出了此设备）',
    missingForProfile: (p) => `缺失（profile 需要 ${p.minCount} 块 NPU）`,
    missingAll: '缺失（完全没有 NPU 设备节点）',
    node: (p) => `${p.path} ${p.problem}`,
    notUsable: (p) => `${p.count} 个设备节点不可用：${p.nodes}`,
    startWith: (p) => `启动容器时加上 ${p.flags}`,
    reloadDriver: '驱动没有创建这些节点：检查 NPU 是否可见（lspci | grep -i d80），并重新加载或重装 NPU 驱动',
    usable: (p) => `${p.count} 个 NPU 设备节点（/dev/davinci${p.ranges}）及 ${p.controls} 均为字符设备`,
  },
  'npu.smi': {
    title: 'npu-smi 可运行且其表格可解析',
    why:
      'npu-smi 是驱动自身对 NPU 的视图。它无法启动时，vllm-ascend 也无法启动，原因就在其输出中：' +
      '"dcmi module initialize failed. ret is -8005"（NPU 被另一个容器占用）、-8020（设备正被使用）、缺少共享库（未挂载驱动 lib64）或卡死（驱动挂死）。' +
      'qprep 将每种情况转换为原因和修复方法。从表格中间开始、在没有结束边框的行之后中断或被手工截去若干行（"..."）的表格，按其内容读取并给出警告：' +
      '其中列出的 NPU 只是下限。必需项：其他 NPU 检查都读取这张表。',
    reads: ['npu-smi info'],
    fix: '按打印出的原因处理：释放 NPU、补上缺少的挂载或修复驱动；然后手动运行 npu-smi info。',
    truncated: (p) =>
      `npu-smi 的输出从表格中间开始（${p.deviceRows ? '设备行' : '进程表'}之前没有标题栏和表头）：按其内容读取，` +
      `${p.devices} 个 NPU 设备${p.deviceRows ? `（${p.family} 系列）` : ''}、${p.processes} 个进程，可能不完整`,
    cut: (p) =>
      (p.line !== null ? `npu-smi 的表格在第 ${p.line} 行之后中断，该行没有结束边框：` : 'npu-smi 的表格中有被手工截去的行（"..."）：') +
      `按其内容读取，${p.devices} 个 NPU 设备（${p.family} 系列）、${p.processes} 个进程，截断之后的 NPU 缺失`,
    recordWhole: '录制 npu-smi info 的完整输出（在主机上运行 qprep snapshot），不要只截取一段',
    noDevice: 'npu-smi 打印了表格，但其中没有 NPU',
    noDeviceFix: '检查 NPU 是否可见（lspci | grep -i d80）以及驱动是否已加载；在容器中用 --device /dev/davinciN 传入',
    summary: (p) => `npu-smi ${p.tool}（驱动 ${p.driver}）：${p.devices} 个 NPU 设备 ${p.ids}，${p.family} 系列`,
    warns: (p) => `${p.summary}；npu-smi 警告："${p.warning}"`,
    mountInstallInfo: (p) => `在 docker run 中加上 -v ${p.path}:${p.path}；若宿主机上的 npu-smi 也有此警告，则在宿主机上重装驱动`,
    reinstallDriver: (p) => `重装 NPU 驱动包，使 ${p.path} 记录 Driver_Install_Status=complete（./Ascend-hdk-*-npu-driver_*.run --full）`,
  },
  'npu.count': {
    title: 'NPU 数量与系列符合部署要求',
    why:
      '张量并行度 16 需要 16 个可见芯片（一台 Atlas 800 A3，或两台 8 卡 A2）；故障后缺少一张卡或一个芯片，或容器启动时 --device 参数不全，' +
      '都会在权重加载完之后才启动失败。ASCEND_RT_VISIBLE_DEVICES 按进程可见的设备从 0 编号（容器会重新编号），' +
      '超出数量的 id 会报 "set ASCEND_RT_VISIBLE_DEVICES:4 error, input data rang[0-2)"。必需项。',
    reads: ['npu-smi info', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.minCount, npu.family, npu.visibleDevices'],
    fix: '把部署需要的每块 NPU 都传入容器（--device），修复缺失的卡，或更正 profile 或 ASCEND_RT_VISIBLE_DEVICES。',
    what: 'NPU 数量',
    shape: (p) => `（${p.cards} 张卡 × ${p.chips} 个芯片）`,
    wrongFamily: (p) => `这是一台 ${p.family} 主机（${p.layout} 表格布局），而 profile 针对的是 ${p.wanted}`,
    useProfile: '使用与此硬件对应的 profile（--profile NAME；README 列出了内置 profile），或把负载移到匹配的节点',
    tooFew: (p) => `可见 ${p.devices} 个 NPU 设备，profile 至少需要 ${p.minCount} 个`,
    passAll: (p) => `在容器中传入全部设备（--device /dev/davinci0 ... /dev/davinci${p.last}）；在主机上用 "npu-smi info -l" 和 "lspci | grep -i d80" 查找缺失的卡`,
    invalid: (p) => `${p.source} 无效：${p.problem}`,
    writeIds: '将 id 写成 ASCEND_RT_VISIBLE_DEVICES=0,1,2,3 或范围 0-7',
    beyond: (p) => `${p.source}=${p.text} 指定了设备 ${p.ids}（共 ${p.count} 个），但这里只有 ${p.devices} 个可见（id 0-${p.devices - 1}）`,
    renumber: (p) => `按此处可见的 ${p.devices} 个设备从 0 编号（容器内运行时会对映射的设备重新编号），或用 --device 映射更多设备`,
    tooFewSelected: (p) => `${p.source}=${p.text} 选择了 ${p.selected} 个设备，profile 需要 ${p.minCount} 个`,
    selectMore: (p) => `选择 ${p.minCount} 个设备，例如 ASCEND_RT_VISIBLE_DEVICES=0-${p.minCount - 1}`,
    partialTooFew: (p) =>
      `npu-smi 的表格不完整（见 npu.smi）：其中列出 ${p.devices} 个 NPU 设备，本机至少有这么多，` +
      (p.visible !== null ? `而 ${p.source}=${p.visible} 指定的设备超出此数：` : `而 profile 需要 ${p.minCount} 个：`) +
      '无法根据不完整的表格判断数量',
    passed: (p) =>
      `${p.atLeast ? '至少 ' : ''}${p.devices} 个 NPU 设备${p.atLeast ? '（npu-smi 的表格不完整）' : ''}${p.shape}，${p.family} 系列` +
      (p.selected !== null ? `，其中 ${p.selected} 个由 ${p.source} 选中` : '') +
      (p.minCount > 0 ? `（profile：至少 ${p.minCount} 个${p.wanted !== null ? `，${p.wanted}` : ''}）` : ''),
  },
  'npu.health': {
    title: 'NPU 健康状态',
    why:
      'npu-smi 将每个芯片的健康状态报告为 OK、Warning、Alarm、Critical 或 UNKNOWN。vllm-ascend 自身的 worker 健康检查在非 OK 时会报错，' +
      '处于告警状态的芯片会让集合通信不可预期地失败，因此负载要用的芯片必须为 OK：必需项。' +
      'ASCEND_RT_VISIBLE_DEVICES（或 profile 的 npu.visibleDevices）之外的非 OK 芯片只给出警告。错误码来自 npu-smi info -t health；' +
      '每个错误码都在昇腾 device plugin 的故障码表（knowledge/fault-codes.json）中查出其含义、处理级别和处理动作，' +
      '芯片按其最严重的故障码判定，与 device plugin 的判定方式一致。故障码表中没有的错误码会注明未知。',
    reads: ['npu-smi info', 'npu-smi info -t health -i <card> -c <chip> (for non-OK chips)', 'ASCEND_RT_VISIBLE_DEVICES'],
    fix: '查看错误码（npu-smi info -t health），复位或更换芯片，或将其排除在 ASCEND_RT_VISIBLE_DEVICES 和设备映射之外。',
    what: 'NPU 健康状态',
    device: (p) => `${p.label} ${p.health}${p.codes ? `：${p.codes}` : ''}${p.information ? `（${p.information}）` : ''}`,
    code: (p) => `${p.code} ${p.level}${p.meaning ? `（${p.meaning}）` : ''}`,
    unknownCode: (p) => `${p.code}（不在故障码表中）`,
    codeSeparator: '；',
    inspect: (p) => `npu-smi info -t health -i ${p.card} -c ${p.chip}   # 查看：错误码及其来源`,
    reset: (p) => `or: npu-smi set -t reset -i ${p.card} -c ${p.chip}   # 复位芯片，或安排更换`,
    resetFirst: (p) => `npu-smi set -t reset -i ${p.card} -c ${p.chip}   # 先停止负载再复位芯片：最严重故障码的处理级别要求复位`,
    explainCode: (p) => `qprep explain ${p.code}   # 该故障码的含义、处理级别和来源`,
    restartWorkload: '在该芯片上重新执行负载：最严重故障码的处理级别要求重新执行业务；若故障码再次出现，复位芯片',
    leaveOutFirst: '在故障排除前，将它排除在 ASCEND_RT_VISIBLE_DEVICES 和容器的 --device 参数之外',
    leaveOut: 'or: 将它排除在 ASCEND_RT_VISIBLE_DEVICES 和容器的 --device 参数之外',
    notOk: (p) => `负载使用的 ${p.used} 个 NPU 设备中有 ${p.count} 个状态不是 OK：${p.devices}`,
    notOkOutside: (p) => `${p.source} 之外有 ${p.count} 个 NPU 设备状态不是 OK：${p.devices}`,
    allOk: (p) => (p.count === 1 ? '该 NPU 设备状态为 OK' : `全部 ${p.count} 个 NPU 设备状态均为 OK`),
  },
  'npu.ecc': {
    title: 'HBM ECC：不可纠正错误与隔离页',
    why:
      '开始失效的 HBM 在拖垮作业之前，会先体现在 ECC 计数上：驱动加载以来的不可纠正（多 bit）错误、驱动已隔离（停用）的页，' +
      '以及等待下次 NPU 复位才会隔离的页。npu-smi info -t ecc 按芯片打印这些计数。负载要用的芯片出现以下情况即失败：不可纠正错误' +
      '（直到片上内存诊断通过）、待隔离页（复位后隔离）、隔离页达到 64 个（隔离表已满，需返修板卡）；隔离页达到 16 个给出警告。' +
      '阈值与处理方式来自昇腾故障诊断知识图谱中的 HBM 故障码和 npu-smi 参考文档（knowledge/hbm-ecc.json）。' +
      '可纠正（单 bit）错误只报告、不判定。必需项；ASCEND_RT_VISIBLE_DEVICES 之外的芯片只给出警告。',
    reads: ['npu-smi info', 'npu-smi info -t ecc -i <card>（每张卡一次）', 'ASCEND_RT_VISIBLE_DEVICES'],
    fix: '有不可纠正 HBM 错误的芯片停止使用并做片上内存诊断；有待隔离页的芯片执行复位；隔离表已满的板卡送修。',
    what: 'HBM ECC 计数',
    noHbm: '310P 的模型放在 DDR 而非 HBM 中：不判定其 HBM ECC',
    noDevices: 'npu-smi 未列出任何 NPU 设备：没有可读取的 HBM',
    unsupported: '该驱动不提供 ECC 计数（npu-smi info -t ecc：不支持）',
    noHbmCounters: 'npu-smi info -t ecc 没有输出任何芯片的 HBM 计数',
    notCaptured: '快照中没有 npu-smi info -t ecc 的输出：录制快照时还没有这项检查',
    noHbmFix: '无需处理：npu-smi info -t ecc -i <card> 输出其 DDR 计数，由此引发的故障由 npu.health 报告',
    noDevicesFix: '此处无需处理：npu.count 会报告缺失的 NPU',
    unsupportedFix: '无需处理：该驱动上报的故障由 npu.health 报告',
    rules: {
      'isolation-full': (p) => `已隔离 ${p.retired} 个 HBM 页：隔离表已满（64），板卡需返修`,
      'pending-isolation': (p) => `${p.pending} 个有不可纠正错误的 HBM 页等待隔离（下次复位时隔离）`,
      uncorrectable: (p) => `驱动加载以来 ${p.errors} 个不可纠正（多 bit）HBM 错误${p.retired > 0 ? `，已隔离 ${p.retired} 个页` : ''}`,
      'isolation-high': (p) => `已隔离 ${p.retired} 个 HBM 页（达到 16 个）`,
    },
    chip: (p) => `${p.label}：${p.findings}`,
    failing: (p) => `负载使用的 ${p.used} 个 NPU 设备中有 ${p.count} 个 HBM 异常：${p.chips}`,
    failingOutside: (p) => `${p.source} 之外有 ${p.count} 个 NPU 设备 HBM 异常：${p.chips}`,
    watching: (p) => `需关注的 HBM：${p.chips}`,
    replaceCard: (p) => `将 ${p.labels} 所在板卡送修或更换：其 HBM 已无法再隔离更多页`,
    leaveOut: (p) => `export ASCEND_RT_VISIBLE_DEVICES=${p.devices}   # 在 HBM 问题排除前，将 ${p.labels} 排除在外（也不要加入容器的 --device 参数）`,
    leaveOutAll: '在 HBM 问题排除前，将这些 NPU 排除在 ASCEND_RT_VISIBLE_DEVICES 和容器的 --device 参数之外',
    diagnose: 'ascend-dmi --dg -i hbm   # 工具包的片上内存诊断（会中断 NPU 上的作业）；诊断失败则更换板卡',
    reset: (p) => `npu-smi set -t reset -i ${p.card} -c ${p.chip}   # 先停止负载：待隔离页在复位时完成隔离`,
    watch: (p) => `npu-smi info -t ecc -i ${p.card}   # 关注已隔离页：达到 64 个时板卡需返修`,
    unread: (p) => `无法读取 ${p.count} 张卡的 ECC 计数：${p.problems}`,
    readByHand: (p) => `在宿主机上运行 npu-smi info -t ecc -i ${p.card}，查看其 HBM 计数`,
    note: (p) => `${p.label}：${[p.retired > 0 ? `此前已隔离 ${p.retired} 个页` : '', p.corrected > 0 ? `${p.corrected} 个已纠正错误` : ''].filter(Boolean).join('，')}`,
    clean: (p) => `${p.count} 个 NPU 设备的 HBM：驱动加载以来无不可纠正错误，无待隔离页${p.notes ? `；${p.notes}` : ''}`,
  },
  'npu.idle': {
    title: 'NPU 空闲可用',
    why:
      '最常见的迟发故障：另一个进程或被遗忘的容器占着 NPU，vLLM 报 "NPU out of memory"，或第二个实例在长时间加载后死在同一块 NPU 上。' +
      'npu-smi 按 NPU 列出进程；HBM（310P 上为 DDR）远高于空闲基线，说明有 npu-smi 看不到的占用者，例如另一个容器中的进程。' +
      '只检查 ASCEND_RT_VISIBLE_DEVICES（或 profile 的 npu.visibleDevices）中的 NPU。必需项。',
    reads: ['npu-smi info（进程表、内存列）', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.idleMemoryMB, npu.visibleDevices'],
    fix: '停止占用 NPU 的进程或容器，或将 ASCEND_RT_VISIBLE_DEVICES 指向空闲的 NPU。',
    what: 'NPU 是否空闲',
    process: (p) => `pid ${p.pid}${p.name ? ` ${p.name}` : ''}${p.memoryMB !== null ? `（${p.memoryMB} MB）` : ''}`,
    heldByProcesses: (p) => `${p.device}：${p.processes}`,
    heldByUnlisted: (p) => `${p.device}：已用 ${p.usedMB} / ${p.totalMB} MB ${p.kind}，但未列出进程`,
    busy: (p) => `${p.used} 个 NPU 设备中有 ${p.busy} 个被占用：${p.reasons}`,
    kill: (p) => `kill ${p.pids}   # 若是残留进程则停止它（在另一个容器中：先 docker ps，再 docker stop）`,
    holderOutsideView: '此视图之外的进程占用了内存（另一个容器，或宿主机的 npu-smi 才能列出的进程）：在宿主机上运行 npu-smi info 并停止它',
    useFreeDevices: (p) => `or: export ASCEND_RT_VISIBLE_DEVICES=${p.devices}   # 只用空闲的 NPU`,
    pointAtFreeDevices: 'or: 将 ASCEND_RT_VISIBLE_DEVICES 设为空闲的 NPU',
    free: (p) =>
      `${p.used} 个 NPU 设备空闲：${p.processTable ? '无进程' : '此驱动不打印进程表'}` +
      (p.memoryRange ? `，已用 ${p.memoryRange.min}-${p.memoryRange.max} MB（空闲基线）` : ''),
  },
};

import type { launch as en, launchProbes as enProbes } from '../../en/checks/launch.js';

export const launchProbes: typeof enProbes = {
  noScript: '未给出启动脚本（--launch SCRIPT）',
  remediation: 'qprep check --launch /path/to/run.sh   # 在本节点启动 vllm serve 的 bash 脚本',
  variableAt: (p: { name: string; at: string; from: string | null; fromLine: number | null }) =>
    `${p.name}（${p.at}${p.from !== null ? `，来自第 ${p.fromLine} 行的 ${p.from}` : ''}）`,
  inherited: (p: { name: string }) => `${p.name}（继承自运行环境）`,
};

export const launch: typeof en = {
  'launch.script': {
    title: '启动脚本可读，且找到服务启动命令',
    why:
      'qprep 读取启动脚本而不运行它，只能判断读得出的内容：由 $(hostname -I) 生成的值、在 if 中设置的变量、' +
      'source 引入的文件，只有脚本运行时才知道。本检查说明其他启动检查无法看到的部分，并发现 bash 自身会出错的脚本' +
      '（Windows 换行符、未闭合的引号），以及最后一个参数后多余的反斜杠（它会吞掉下面新加的一行）。' +
      '值来自脚本参数（$1..$9）的模板，按同时给出的其他脚本中第一次调用它的参数读取（重复 --launch：' +
      '`bash run_dp_template.sh 0,1,2,3 9000 4 0 ...`）；其余调用的设备和端口也会检查（launch.devices、launch.ports）。',
    reads: ['--launch 脚本（不执行）'],
    fix: '把脚本运行时才计算的值直接写出，转换 CRLF 换行符（sed -i "s/\\r$//" SCRIPT），闭合引号，删除末尾多余的反斜杠。',
    brokenFix: (p: { at: string; message: string }) => `修改 ${p.at}：${p.message}`,
    broken: (p: { script: string; message: string; more: number }) =>
      `${p.script} 按现状无法运行：${p.message}${p.more > 0 ? `（另有 ${p.more} 个问题）` : ''}`,
    runsLauncher: (p: { launcher: string; line: number }) => `运行的是 ${p.launcher}（第 ${p.line} 行），不是 vLLM 服务`,
    startsNoServer: '没有启动 vLLM 服务',
    noServer: (p: { script: string; what: string }) =>
      `${p.script} ${p.what}（没有 "vllm serve" 或 "python -m vllm.entrypoints.openai.api_server"）：不检查其参数`,
    noServerFix: '请给 qprep 本节点运行 vllm serve 的脚本（qprep check --launch run.sh）；运行时才拼出命令的包装脚本无法读取',
    unreadParts: (p: { count: number; parts: string }) => `${p.count} 处不运行就无法检查（${p.parts}）`,
    hazardLines: (p: { lines: number[] }) =>
      `${p.lines.length === 1 ? `第 ${p.lines[0]} 行` : `第 ${p.lines.join('、')} 行`}的命令以反斜杠结尾，其后是空行或文件末尾`,
    removeBackslash: (p: { at: string }) => `${p.at}：删除行尾的反斜杠（在其下新加的一行会变成该命令的参数）`,
    andMore: (p: { count: number }) => `……另有 ${p.count} 处（见证据）`,
    unread: (p: { script: string; parts: string }) => `${p.script}：${p.parts}`,
    allRead: (p: { script: string; form: string; model: string; line: number; flags: number; assignments: number; arguments: string }) =>
      `${p.script}：第 ${p.line} 行的 ${p.form}${p.model ? ` ${p.model}` : ''}，${p.flags} 个参数，${p.assignments} 个赋值；全部已读取${p.arguments}`,
    argumentsFrom: (p: { last: number; invocation: string; others: number; where: string }) =>
      `；$1..$${p.last} 取自 ${p.invocation}${p.others > 0 ? `；另有 ${p.others} 次参数不同的调用只由 launch.devices 和 launch.ports 检查（${p.where}）` : ''}`,
  },
  'launch.devices': {
    title: '启动脚本与可见 NPU 相符',
    why:
      'vLLM 按张量并行 x 流水线并行 x 本地数据并行启动工作进程，每个进程占用 ASCEND_RT_VISIBLE_DEVICES 中的一个 NPU。' +
      '不存在的设备 ID 会报错 "set ASCEND_RT_VISIBLE_DEVICES:4 error, input data rang[0-2)"（容器内设备 ID 从 0 重新编号），' +
      '而所需 NPU 多于实际数量的并行配置会在模型加载完成后才失败。',
    reads: ['--launch 脚本（不执行）', 'npu-smi info'],
    fix: '在 ASCEND_RT_VISIBLE_DEVICES 中只列出本机存在的设备（容器内为 0..n-1），或调低 --tensor-parallel-size / --data-parallel-size-local。',
    noInventory: (p: { script: string; problem: string }) => `无法列出 NPU，不能检查 ${p.script}：${p.problem}`,
    fixNpuSmi: '先修复 npu-smi（qprep explain npu.smi），再重新运行',
    allSeen: (p: { count: number; inContainer: boolean }) => `本${p.inContainer ? '容器' : '主机'}可见的全部 ${p.count} 个 NPU`,
    fromArgument: (p: { where: string; argument: string }) =>
      `${p.where} 是脚本参数 ${p.argument}：设备由调用方指定，在写入实际值的地方判断`,
    checkLauncher: (p: { script: string }) => `请检查启动器的命令行，或检查写入了设备的 ${p.script} 副本`,
    computed: (p: { where: string; dynamic: string }) => `${p.where} 在运行时计算（${p.dynamic}）：无法检查设备`,
    writeLiterally: (p: { ids: string }) => `直接写出设备 ID：export ASCEND_RT_VISIBLE_DEVICES=${p.ids}`,
    notAList: (p: { where: string; value: string }) => `${p.where} 为 "${p.value}"，不是 0,1,4-7 这样的设备 ID 列表`,
    missing: (p: { where: string; missing: string; inContainer: boolean; count: number; present: string }) =>
      `${p.where} 列出了 ${p.missing}，本${p.inContainer ? '容器' : '主机'}没有这些设备：可见 ${p.count} 个 NPU（ID ${p.present || '无'}）` +
      (p.inContainer ? '（容器内设备 ID 从 0 重新编号：请使用 0..n-1，而不是宿主机的 ID）' : ''),
    exportDevices: (p: { prefix: string; ids: string; inContainer: boolean }) =>
      `${p.prefix}export ASCEND_RT_VISIBLE_DEVICES=${p.ids}${p.inContainer ? '   # 并用 docker run --device /dev/davinciN 映射每个宿主机设备' : ''}`,
    atLine: (p: { script: string; line: number }) => `${p.script} 第 ${p.line} 行：`,
    ofVariable: (p: { count: number; value: string }) => `ASCEND_RT_VISIBLE_DEVICES 中的 ${p.count} 个 NPU（${p.value}）`,
    noServer: (p: { script: string; source: string }) => `${p.script} 的设备在本机存在（${p.source}）；没有服务启动命令可用于核算`,
    sizesFromCaller: (p: { script: string; values: string }) => `无法核算 ${p.script} 的服务规模：${p.values} 来自调用方（launch.flags 已说明）`,
    checkCopy: (p: { script: string }) => `请检查写入了并行规模的 ${p.script} 副本`,
    badSize: (p: { script: string; problem: string }) => `无法核算 ${p.script} 的服务规模：${p.problem}（launch.flags 已报告）`,
    correctFlag: (p: { at: string }) => `修正 ${p.at} 处的参数（qprep explain launch.flags）`,
    overRay: (p: { layout: string; count: number; source: string }) => `${p.layout} = ${p.count} 个 NPU 分布在 Ray 集群上；本节点提供 ${p.source}`,
    lowerLocal: (p: { local: number; script: string; line: number }) => `--data-parallel-size-local ${p.local}   # 位于 ${p.script} 第 ${p.line} 行`,
    lowerTp: (p: { tp: number }) => `--tensor-parallel-size ${p.tp}，或映射更多 NPU（docker run --device /dev/davinciN）`,
    tooMany: (p: { script: string; layout: string; count: number; source: string }) =>
      `${p.script} 在本节点需要 ${p.layout} = ${p.count} 个 NPU，但只有 ${p.source}`,
    fits: (p: { layout: string; count: number; source: string; spare: number }) =>
      `${p.layout} = ${p.count} 个 NPU，不超过可用的 NPU：${p.source}${p.spare > 0 ? `；另有 ${p.spare} 个可见但未使用` : ''}`,
  },
  'launch.ports': {
    title: '启动脚本使用的端口空闲',
    why:
      '服务绑定 --port，主节点绑定 --data-parallel-rpc-port，Mooncake 连接器绑定 kv_port 及每个 rank 一个端口，' +
      'HCCL 在 HCCL_IF_BASE_PORT（默认 60000）起每个设备监听一个端口。其中任一端口被残留进程占用，都会在权重加载完成后' +
      '以 "Failed to bind the IP port" 启动失败；基础端口过于接近 65535 时，最后几个设备会失败。Mooncake 的 kv_port 落在 ' +
      'AscendDirectTransport 随机分配的端口范围 [20000, 20000 + 每节点 NPU 数 x 1000) 内时，会偶发冲突' +
      '（vllm-ascend docs/source/tutorials/features/pd_disaggregation_mooncake_multi_node.md，"kv_port Configuration Guide"：' +
      '8 个 NPU 为 20000-27999，16 个 NPU 为 20000-35999）。',
    reads: ['--launch 脚本（不执行）', '/proc/net/tcp', '/proc/net/tcp6', '/proc/<pid>/fd（占用端口的进程）', 'npu-smi info（每节点 NPU 数）'],
    fix: '停止占用端口的进程，或修改检查指出的参数或 HCCL_IF_BASE_PORT。',
    vllmDefault: (p: { label: string }) => `${p.label}（vLLM 默认值）`,
    kvPorts: (p: { connector: string }) => `${p.connector} 的 KV 端口`,
    kvPort: (p: { connector: string }) => `${p.connector} 的 kv_port`,
    hcclDefault: (p: { count: number }) => `HCCL 监听端口（默认基础端口 60000${p.count === 1 ? '' : ''}）`,
    hcclBase: (p: { count: number; base: number }) => `HCCL 监听端口（HCCL_IF_BASE_PORT ${p.base}${p.count === 1 ? '' : ''}）`,
    badFlag: (p: { reason: string; at: string }) => `${p.reason}（${p.at}）`,
    badFlagFix: (p: { script: string; line: number; flag: string }) => `${p.script} 第 ${p.line} 行：${p.flag} <port>   # 1 到 65535 之间的数字`,
    above: (p: { flag: string; value: number; at: string }) => `${p.flag} ${p.value}（${p.at}）大于 65535`,
    aboveFix: (p: { script: string; line: number; flag: string }) => `${p.script} 第 ${p.line} 行：${p.flag} <小于 65536 的端口>`,
    kvNotPort: (p: { value: string; at: string }) => `--kv-transfer-config 的 kv_port "${p.value}"（${p.at}）不是端口号`,
    kvNotPortFix: (p: { script: string; line: number }) => `${p.script} 第 ${p.line} 行："kv_port": "<空闲端口>"`,
    kvReserved: (p: { base: number; connector: string; at: string; first: number; last: number; npus: number; guide: string }) =>
      `${p.connector} 的 kv_port ${p.base}（${p.at}）位于 ${p.first}-${p.last} 内，这是 Mooncake 的 AscendDirectTransport 在 ${p.npus} 个 NPU 的节点上随机分配的端口（${p.guide}）：服务会偶发 "Address already in use" 启动失败`,
    kvReservedFix: (p: { script: string; line: number; next: number; npus: number }) =>
      `${p.script} 第 ${p.line} 行："kv_port": "${p.next}"   # 不小于 ${p.next}，即指南表格对每节点 ${p.npus} 个 NPU 的推荐值；同一角色的所有节点保持一致`,
    baseComputed: (p: { dynamic: string }) => `HCCL_IF_BASE_PORT 在运行时计算（${p.dynamic}）`,
    baseComputedFix: 'export HCCL_IF_BASE_PORT=<port>   # 直接写出，以便检查',
    baseNotPort: (p: { value: string }) => `HCCL_IF_BASE_PORT 为 "${p.value}"，不是端口号`,
    basePast: (p: { base: number; devices: number; last: number }) => `HCCL_IF_BASE_PORT ${p.base} + ${p.devices} 个设备超出 65535（到 ${p.last}）`,
    basePastFix: (p: { port: number }) => `export HCCL_IF_BASE_PORT=${p.port}   # 基础端口 + 设备数不得超过 65535`,
    bothRoles: (p: { port: number; first: string; second: string }) => `端口 ${p.port} 同时是 ${p.first} 和 ${p.second}`,
    moveOne: (p: { at: string | null }) => `修改其中一个${p.at !== null ? `（${p.at}）` : ''}`,
    noSockets: (p: { problem: string }) => `无法读取监听中的套接字：${p.problem}`,
    noSocketsFix: '使 /proc/net 可读（挂载 /proc）后重新运行',
    busyPort: (p: { port: number; what: string; holder: string | null }) => `${p.port}（${p.what}；${p.holder ?? '看不到占用者'}）`,
    inUse: (p: { count: number; script: string; ports: string }) => `${p.script} 的 ${p.count} 个端口已被占用：${p.ports}`,
    killFix: (p: { pid: number; name: string; script: string }) => `kill ${p.pid}   # ${p.name}，如果是残留进程；或修改 ${p.script} 中的端口`,
    ssFix: (p: { ports: string; script: string }) => `sudo ss -ltnp | grep -E ':(${p.ports})\\b'   # 找到占用者并停止它，或修改 ${p.script} 中的端口`,
    noPorts: (p: { script: string }) => `${p.script} 没有绑定 qprep 已知的端口`,
    free: (p: { script: string; ports: string }) => `${p.script} 的端口空闲：${p.ports}`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
  },
  'launch.env': {
    title: '启动脚本的环境变量',
    why:
      '有几个变量决定服务能否启动：本架构下不存在的 LD_PRELOAD 条目（ld.so 在每个进程中打印 "cannot be preloaded"）、' +
      '对专家并行分发过小的 HCCL_BUFFSIZE（"HCCL_BUFFSIZE is too SMALL ... NEEDED_HCCL_BUFFSIZE"）、使用 Ray 后端时缺少 ' +
      'RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES（工作进程看不到 NPU，30 分钟后报 DistStoreError）、超出 [120, 7200] 的 ' +
      'HCCL_CONNECT_TIMEOUT，以及未 export 的 HCCL 或 vLLM 变量（vllm 永远看不到它们）。在 NPU 节点上 ray start 之前必须设置 ' +
      'RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1（tutorials/features/ray.md），与服务参数无关；写入 /sys 或 /proc/sys 的行' +
      '（echo | tee、sysctl -w）需要特权容器，或改为在宿主机上运行 qprep tune。',
    fix: '在启动脚本中应用检查给出的 export 行。',
    inEnvironment: 'qprep 运行所在的环境中',
    atLine: (p: { script: string; line: number }) => `${p.script} 第 ${p.line} 行`,
    preloadComputed: (p: { entry: string }) => `LD_PRELOAD 条目 ${p.entry} 在运行时计算`,
    preloadComputedFix: (p: { where: string; path: string | null }) => `${p.where}：export LD_PRELOAD=${p.path ?? '<path>'}:$LD_PRELOAD   # 直接写出，以便检查`,
    preloadFix: (p: { where: string; path: string | null; file: string; library: string; arch: string }) =>
      `${p.where}：export LD_PRELOAD=${p.path ?? `<本机的 ${p.file}>`}:$LD_PRELOAD${p.path ? `   # 本 ${p.arch} 主机上的 ${p.library}` : ''}`,
    preloadForeign: (p: { entry: string; foreign: string; arch: string }) => `LD_PRELOAD 条目 ${p.entry} 适用于 ${p.foreign}，本主机是 ${p.arch}：ld.so 会跳过它`,
    preloadNotCaptured: (p: { entry: string }) => `快照中没有记录 LD_PRELOAD 条目 ${p.entry}：无法确定它是否存在`,
    recordAgain: (p: { script: string }) => `用此脚本重新录制快照（qprep snapshot --launch ${p.script}）`,
    preloadMissing: (p: { entry: string }) => `LD_PRELOAD 条目 ${p.entry} 在本主机上不存在：ld.so 打印 "cannot be preloaded" 并在没有它的情况下运行`,
    computed: (p: { variable: string }) => `${p.variable} 在运行时计算`,
    buffsizeLiteral: (p: { where: string }) => `${p.where}：export HCCL_BUFFSIZE=1024   # 直接写出`,
    buffsizeBad: (p: { variable: string; value: string }) => `${p.variable} 为 "${p.value}"：HCCL 需要以 MB 为单位的整数，至少为 1`,
    buffsizeSmall: (p: { variable: string; value: string }) =>
      `${p.variable} 为 ${p.value} MB，同时使用 --enable-expert-parallel：MoE 分发/合并通常需要超过默认的 200 MB`,
    buffsizeSmallFix: (p: { where: string }) => `${p.where}：export HCCL_BUFFSIZE=1024   # 指南在专家并行时使用 512-2048`,
    buffsizeMissing: '使用 --enable-expert-parallel 但未设置 HCCL_BUFFSIZE：HCCL 使用 200 MB，MoE 分发/合并需要更多时会报 "HCCL_BUFFSIZE is too SMALL"',
    buffsizeMissingFix: (p: { script: string }) => `export HCCL_BUFFSIZE=1024   # 写在 ${p.script} 中 vllm serve 之前；指南在专家并行时使用 512-2048`,
    rayNoset: (p: { value: string | null }) =>
      `使用 --distributed-executor-backend ray 但没有 RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1${p.value !== null ? `（当前为 "${p.value}"）` : ''}：Ray 工作进程看不到 NPU，启动会超时`,
    rayNosetFix: (p: { script: string }) => `export RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1   # 写在 ${p.script} 中，并在每个节点的 ray start 之前设置`,
    rayStart: (p: { line: number; name: string }) =>
      `第 ${p.line} 行的 ray start 之前没有 export ${p.name}=1：Ray 会对其工作进程隐藏 NPU（tutorials/features/ray.md 在每个节点上都设置了它）`,
    rayStartFix: (p: { script: string; line: number; name: string }) => `${p.script} 第 ${p.line} 行：export ${p.name}=1   # 在 ray start 之前，每个节点都要设置`,
    hostLines: (p: { lines: number[]; first: string }) =>
      `${p.lines.length === 1 ? '第' : '第'} ${p.lines.join('、')} 行修改宿主机（${p.first}）：需要特权容器（否则报 "Read-only file system"），或改为在宿主机上运行 qprep tune`,
    connectBad: (p: { variable: string; value: string }) => `${p.variable} 为 "${p.value}"，不是秒数`,
    connectRange: (p: { variable: string; value: string }) => `${p.variable} 为 ${p.value} 秒，超出 HCCL 的范围 [120, 7200]`,
    exportAt: (p: { where: string; line: string }) => `${p.where}：${p.line}`,
    notExported: (p: { name: string; line: number }) => `${p.name} 在第 ${p.line} 行设置但从未 export：vllm 看不到它`,
    notExportedFix: (p: { script: string; line: number; name: string }) => `${p.script} 第 ${p.line} 行：export ${p.name}=...`,
    judged: (p: { script: string; checked: string }) => `${p.script}：已检查 ${p.checked}`,
    nothing: (p: { script: string }) => `${p.script} 没有设置 qprep 在此判断的变量（LD_PRELOAD、HCCL_BUFFSIZE、Ray、HCCL_CONNECT_TIMEOUT）`,
    withNote: (p: { judged: string; note: string }) => `${p.judged}；注意：${p.note}`,
    noteLine: (p: { note: string }) => `注意：${p.note}`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
  },
  'launch.placeholders': {
    title: '启动脚本中没有遗留占位符',
    why:
      '部署指南发布的脚本中有待填写的值：nic_name="xxx"、local_ip="xxx"、node0_ip="xxxx"，代理中的 141.xx.xx.1。' +
      '复制后仍带有占位符的脚本要在加载权重几分钟后才会失败：HCCL 或 Gloo 无法绑定 "xxx"，或一直等待不存在的主节点。',
    reads: ['--launch 脚本（不执行）', '网络接口（用于建议的值）'],
    fix: '在检查指出的行上填写每个值；建议的地址和网卡是本主机的。',
    none: (p: { script: string; assignments: number }) => `${p.script} 中没有占位符（已读取 ${p.assignments} 个赋值和服务参数）`,
    empty: (p: { name: string; line: number; unset: string | null }) => `${p.name} 为空（第 ${p.line} 行${p.unset !== null ? `：$${p.unset} 未在任何地方设置` : ''}）`,
    setNowhere: (p: { name: string; placeholder: string; line: number }) => `${p.name} ${p.placeholder}（第 ${p.line} 行：脚本和运行环境中都没有设置）`,
    found: (p: { name: string; written: string; line: number; redirection: string | null }) =>
      `${p.name}${p.written}（第 ${p.line} 行${p.redirection !== null ? `；未加引号，bash 会把 ${p.redirection} 当作重定向` : ''}）`,
    holds: (p: { placeholder: string }) => ` 含有 "${p.placeholder}"`,
    left: (p: { count: number; script: string; list: string }) => `${p.script} 中遗留 ${p.count} 个占位符：${p.list}`,
    fixLine: (p: { script: string; line: number; suggestion: string; usedBy: string | null }) =>
      `${p.script} 第 ${p.line} 行：${p.suggestion}${p.usedBy !== null ? `；被 ${p.usedBy} 使用` : ''}`,
    nic: (p: { literal: string; ip: string }) => `${p.literal}   # 承载 ${p.ip} 的网卡`,
    nicUnknown: (p: { literal: string }) => `${p.literal}   # 承载本节点地址的网卡（ip -br addr）`,
    masterSelf: (p: { literal: string }) => `${p.literal}   # 本节点是 node 0（数据并行起始 rank 为 0）：填它自己的地址`,
    masterOther: (p: { literal: string }) => `${p.literal}   # node 0（主节点）脚本中设置的 local_ip`,
    nodeZero: '<node 0 的地址>',
    localIp: (p: { literal: string; nic: string }) => `${p.literal}   # 本主机在 ${p.nic} 上的地址`,
    localIpUnknown: (p: { literal: string }) => `${p.literal}   # HCCL 和 vLLM 应使用的地址（ip -br addr）`,
    thisHost: '<本主机地址>',
    emptyValue: (p: { literal: string }) => `${p.literal}   # 当前为空`,
    model: (p: { value: string }) => `vllm serve <权重目录或模型 ID>   # 替换 ${p.value}`,
    replaceIn: (p: { placeholder: string; name: string; variable: boolean }) =>
      `把${p.variable ? ` ${p.name} ` : ` ${p.name} 的值`}中的 ${p.placeholder} 替换为实际值`,
  },
};

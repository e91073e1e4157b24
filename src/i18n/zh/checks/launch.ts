import type { launch as en, launchProbes as enProbes } from '../../en/checks/launch.js';
import type { FlagProblem } from '../../../parsers/vllm-args.js';

export const launchProbes: typeof enProbes = {
  noScript: '未给出启动脚本（--launch SCRIPT）',
  remediation: 'qprep check --launch /path/to/run.sh   # 在本节点启动 vllm serve 的 bash 脚本',
  variableAt: (p: { name: string; at: string; from: string | null; fromLine: number | null }) =>
    `${p.name}（${p.at}${p.from !== null ? `，来自第 ${p.fromLine} 行的 ${p.from}` : ''}）`,
  inherited: (p: { name: string }) => `${p.name}（继承自运行环境）`,
  ruleJudged: (p) =>
    p.installed !== null
      ? `规则 ${p.rule}，vllm-ascend ${p.installed}`
      : p.assumption === 'in-force'
        ? `规则 ${p.rule}；启动脚本所用的 Python 中未找到 vllm-ascend：按规则生效处理`
        : p.assumption === 'warn'
          ? `规则 ${p.rule}；启动脚本所用的 Python 中未找到 vllm-ascend：在版本可知之前仅作警告`
          : `规则 ${p.rule}；启动脚本所用的 Python 中未找到 vllm-ascend：按 ${p.release} 判断`,
  flagProblemAt: (p: { reason: string; line: number }) => `${p.reason}（第 ${p.line} 行）`,
  flagProblem: (p: { flag: string; problem: FlagProblem }) => {
    const problem = p.problem;
    switch (problem.kind) {
      case 'no-value':
        return `${p.flag} 没有值`;
      case 'unknown':
        return `${p.flag} 为 ${problem.text}，只有运行时才能确定`;
      case 'not-whole':
        return `${p.flag} 为 "${problem.text}"，不是整数`;
      case 'below':
        return `${p.flag} 为 ${problem.value}，小于 ${problem.min}`;
      case 'run-time':
        return `${p.flag} 在运行时构造（${problem.dynamic}）`;
      case 'not-json':
        // the JSON parser's own words, quoted as it says them
        return `${p.flag}（第 ${problem.line} 行）不是合法的 JSON：“${problem.detail}”`;
    }
  },
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
    runsDpLauncher: (p) =>
      `${p.script} 运行 launch_online_dp.py（第 ${p.line} 行），它本身不启动服务：它为每个本地数据并行 rank 运行一次 ./run_dp_template.sh，` +
      `（$1 设备，$2 端口，$3 DP 大小，$4 DP rank，$5 DP 地址，$6 RPC 端口，$7 TP 大小）；vllm serve 命令及其参数在该模板中（${p.rule}）`,
    dpLauncherFix: 'qprep check --launch ./run_dp_template.sh   # launch_online_dp.py 所运行的模板，位于启动它的目录中',
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
    placeholder: (p) => `${p.where} 是占位符 ${p.placeholder}：填写后再判断设备（launch.placeholders 会指出它）`,
    placeholderFix: '按 launch.placeholders 的提示填写占位符，然后重新运行检查',
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
    npuPortClash: (p) =>
      `${p.first} 和 ${p.second} 都在 NPU ${p.devices} 上启动服务：HCCL 在它使用的每个 NPU 上监听 16666 端口，因此第二个会失败` +
      `（"listen on ip[...] and specific port[16666] fail"）（${p.rule}）`,
    npuPortClashFix: (p) =>
      `为每个服务分配各自的 NPU（ASCEND_RT_VISIBLE_DEVICES），或在 ${p.first} 和 ${p.second} 之前各自 export HCCL_NPU_SOCKET_PORT_RANGE="auto"   # 由操作系统为 HCCL 选择 NPU 端口`,
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
    reads: ['the --launch script (never executed)', 'LD_PRELOAD paths', 'libjemalloc.so.2 locations'],
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
    buffsizeRefused: (p) =>
      `HCCL_BUFFSIZE 为 ${p.value} MB${p.set ? '' : '（未设置：HCCL 默认值）'}，但该模型的 MC2 分发需要 ${p.needed} MB（maxBs ${p.maxBs}，${p.ep} 个 EP rank，每个 ${p.local} 个专家）：` +
      `在 A3 上 CANN 会在第一个 MoE 层拒绝（"HCCL_BUFFSIZE is too SMALL ... NEEDED_HCCL_BUFFSIZE"）`,
    buffsizeBelowNeed: (p) =>
      `HCCL_BUFFSIZE 为 ${p.value} MB${p.set ? '' : '（未设置：HCCL 默认值）'}，但该模型的 MC2 分发需要 ${p.needed} MB（maxBs ${p.maxBs}，${p.ep} 个 EP rank，每个 ${p.local} 个专家）：` +
      `A2 上的算子不做检查，会在内部失败（"The DDR address of the MTE instruction is out of range"）`,
    buffsizeNeedFix: (p) => `${p.line}   # 写在 ${p.script} 中 vllm serve 之前；至少为 MC2 分发所需`,
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
    aivOn310p: (p) =>
      `${p.variable} 为 AIV，而 Atlas 300I Duo 不支持该值（CANN 为其列出的是 AI_CPU 和 HOST）：HCCL 忽略该值，使用默认值 HOST（${p.rule}）`,
    aivOn310pFix: (p) => `${p.script} 第 ${p.line} 行：删除 HCCL_OP_EXPANSION_MODE=AIV 这一行   # 300I Duo 上可用 AI_CPU 或 HOST，默认 HOST`,
    aivOn310pInheritedFix: '启动前 unset HCCL_OP_EXPANSION_MODE   # 300I Duo 上可用 AI_CPU 或 HOST，默认 HOST',
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
  'launch.flags': {
    title: 'vllm serve 参数一致',
    why:
      'vLLM 拒绝无法解析的 JSON 参数；Mooncake 的 kv_connector_extra_config 中 prefill/decode 的规模与实例不符时，KV 传输会中断；' +
      '一个节点服务 --data-parallel-size 中的第 --data-parallel-start-rank 到 --data-parallel-start-rank + --data-parallel-size-local - 1 个 rank，' +
      '这些值必须相符（qprep aggregate 对所有节点一并检查）；在 Atlas 300I Duo / 200I Pro 上，指南要求 TP > 1 时最多两个捕获尺寸；' +
      '使用 MTP 时捕获尺寸应为 num_speculative_tokens + 1 的倍数；--max-num-seqs x --data-parallel-size 低于预期并发' +
      '（profile 的 deployment.expectedConcurrency）时请求会排队；kv_role 与 profile 为本节点指定的角色不符的脚本是错误的脚本。' +
      '来自调用方的规模（例如 examples/external_online_dp/run_dp_template.sh 这类模板的 $1..$7）只列出一次，不据此推导任何结论。' +
      '--tensor-parallel-size 必须整除注意力头数并与 KV 头数相符（vLLM ModelConfig.verify_with_parallel_config），头数读自权重的 config.json，' +
      '没有权重时读自教程模型的表格（src/data/model-heads.ts，取自各模型在 Hugging Face 上的 config.json）。msModelSlim 量化的权重' +
      '（带 quant_model_description.json）需要 --quantization ascend（user_guide/feature_guide/quantization.md）。' +
      '按版本判断的模型与 NPU 规则（310P 的 float16 与 npugraph_ex、Qwen3.5 的前缀缓存、TorchAir）由 launch.model-rules 检查。',
    reads: ['--launch 脚本（不执行）', 'npu-smi info（NPU 型号系列）'],
    fix: '按检查给出的写法，修改它指出的那一行上的参数。',
    noServer: (p: { script: string }) => `${p.script} 没有启动 vLLM 服务：没有可检查的参数（原因见 launch.script）`,
    reason: (p: { reason: string }) => p.reason,
    jsonComputedFix: (p: { script: string; line: number; flag: string }) => `${p.script} 第 ${p.line} 行：把 ${p.flag} 写成单引号中的字面 JSON`,
    jsonInvalidFix: (p: { script: string; line: number; flag: string }) =>
      `${p.script} 第 ${p.line} 行：${p.flag} '{...}'   # 单引号中的合法 JSON；可用 python3 -m json.tool 检查`,
    noKvConfig: (p: { profile: string; role: string; script: string }) =>
      `profile ${p.profile} 是分离部署中的 ${p.role} 节点，但 ${p.script} 没有 --kv-transfer-config：它启动的是普通服务`,
    noKvConfigFix: (p: { script: string; line: number; kvRole: string; guideScript: string }) =>
      `${p.script} 第 ${p.line} 行：--kv-transfer-config '{"kv_connector": "MooncakeLayerwiseConnector", "kv_role": "${p.kvRole}", ...}'   # 同指南的 ${p.guideScript}；或使用不含 deployment.role 的 profile`,
    wrongRole: (p: { profile: string; role: string; at: string; kvRole: string | null; other: string }) =>
      `profile ${p.profile} 是 ${p.role} 节点，但 ${p.at} ${p.kvRole !== null ? `把 kv_role 设为 ${p.kvRole}` : '没有设置 kv_role'}：这是 ${p.other} 的脚本，还是 profile 用错了？`,
    wrongRoleFix: (p: { role: string; kvRole: string }) => `在这里运行 ${p.role} 的脚本（kv_role "${p.kvRole}"），或用本节点角色对应的 profile 检查它`,
    sizeMismatch: (p: { side: string; key: string; declared: string; flag: string; actual: number; kvRole: string; at: string }) =>
      `--kv-transfer-config 中 ${p.side}.${p.key} 为 ${p.declared}，但这个 ${p.side} 实例运行的是 ${p.flag} ${p.actual}（${p.kvRole}，${p.at}）`,
    sizeMismatchFix: (p: { script: string; line: number; key: string; actual: number; side: string; flag: string }) =>
      `${p.script} 第 ${p.line} 行："${p.key}": ${p.actual}   # 写在 ${p.side} 块中，部署的每个节点都要改；或修改 ${p.flag}`,
    localAbove: (p: { local: number; at: string; dp: number }) =>
      `--data-parallel-size-local ${p.local}（${p.at}）大于 --data-parallel-size ${p.dp}：一个节点服务的 rank 不能多于实例的 rank 总数`,
    localAboveFix: (p: { script: string; line: number; dp: number }) =>
      `${p.script} 第 ${p.line} 行：--data-parallel-size-local ${p.dp}   # 或把 --data-parallel-size 提高到所有节点 rank 数之和`,
    pastLast: (p: { start: number; last: number; dp: number; at: string }) =>
      `本节点将服务 rank ${p.start}-${p.last}，超出 --data-parallel-size ${p.dp} 的最后一个 rank ${p.dp - 1}（--data-parallel-start-rank ${p.start}，${p.at}）`,
    pastLastFix: (p: { script: string; line: number; start: number }) =>
      `${p.script} 第 ${p.line} 行：--data-parallel-start-rank ${p.start}   # 本节点之前所有节点的 rank 数之和；或提高 --data-parallel-size`,
    startNotMultiple: (p: { start: number; at: string; local: number }) =>
      `--data-parallel-start-rank ${p.start}（${p.at}）不是 --data-parallel-size-local ${p.local} 的倍数：每节点 ${p.local} 个 rank 时，各节点从 0、${p.local}、${p.local * 2}……开始`,
    startNotMultipleFix: (p: { script: string; line: number; below: number; above: number }) =>
      `${p.script} 第 ${p.line} 行：--data-parallel-start-rank ${p.below}   # 或 ${p.above}；即本节点之前所有节点的 rank 数之和`,
    noMaxSeqs: (p: { script: string; profile: string; expected: number; dp: number; needed: number }) =>
      `${p.script} 中没有 --max-num-seqs：vLLM 使用其默认值，而 profile ${p.profile} 预期同时有 ${p.expected} 个请求（${p.dp} 个 DP 组，每组需要 ${p.needed} 个）`,
    noMaxSeqsFix: (p: { script: string; line: number; needed: number; dp: number; expected: number }) =>
      `${p.script} 第 ${p.line} 行：--max-num-seqs ${p.needed}   # 乘以 --data-parallel-size ${p.dp} 不小于 ${p.expected}`,
    lowCapacity: (p: { seqs: number; dp: number; capacity: number; expected: number; profile: string }) =>
      `--max-num-seqs ${p.seqs} x --data-parallel-size ${p.dp} = 同时 ${p.capacity} 个请求，低于 profile ${p.profile} 预期的 ${p.expected} 个：其余请求在队列中等待，TTFT 包含等待时间`,
    lowCapacityFix: (p: { script: string; line: number; flag: string; needed: number; dp: number; expected: number }) =>
      `${p.script} 第 ${p.line} 行：${p.flag} ${p.needed}   # 乘以 --data-parallel-size ${p.dp} 不小于 ${p.expected}；或降低 deployment.expectedConcurrency`,
    weightsConfig: '权重的 config.json',
    tableConfig: (p: { id: string }) => `${p.id} 的 config.json（qprep 的表格）`,
    divisorOf: (p: { flag: string; heads: number }) => `${p.flag} <${p.heads} 的约数>`,
    headsNotDivided: (p: { flag: string; tp: number; at: string; heads: number; model: string; source: string }) =>
      `${p.flag} ${p.tp}（${p.at}）不能整除 ${p.model} 的 ${p.heads} 个注意力头（${p.source}）：vLLM 拒绝启动`,
    kvHeadsNotFit: (p: { flag: string; tp: number; at: string; kvHeads: number; model: string; source: string }) =>
      `${p.flag} ${p.tp}（${p.at}）与 ${p.model} 的 ${p.kvHeads} 个 KV 头不相符（${p.source}）：KV 头既不能均分，也不能复制`,
    headsFix: (p: { script: string; line: number; suggestion: string; fits: string }) => `${p.script} 第 ${p.line} 行：${p.suggestion}   # 可用的 TP 大小：${p.fits}`,
    msModelSlim: (p: { model: string; description: string; quantization: string | null }) =>
      `${p.model} 由 msModelSlim 量化（${p.description}），但${p.quantization !== null ? ` --quantization 为 ${p.quantization}` : '服务没有 --quantization ascend'}：量化权重无法加载`,
    quantizationFix: (p: { script: string; line: number }) => `${p.script} 第 ${p.line} 行：--quantization ascend`,
    looksQuantized: (p: { model: string }) =>
      `${p.model} 看起来是 W8A8/W4A8 量化模型，而服务没有 --quantization ascend：msModelSlim 的权重需要它（LLM-Compressor 的权重不需要）；本主机上没有权重，无法确定`,
    looksQuantizedFix: (p: { script: string; line: number }) =>
      `${p.script} 第 ${p.line} 行：--quantization ascend   # 如果权重来自 msModelSlim（带有 quant_model_description.json）`,
    captureSizes310pRule: (p) =>
      `在 310P 上 TP 为 ${p.tp} 时，硬件 event id 只允许至多两个 cudagraph 捕获尺寸；` +
      (p.given ? `--compilation-config 列出了 ${p.count} 个（${p.sizes}）` : `脚本未指定，因此 vLLM 捕获其默认列表中的 ${p.count} 个（${p.sizes}）`) +
      `（${p.rule}）`,
    captureSizesFix: (p: { script: string; line: number; sizes: string }) => `${p.script} 第 ${p.line} 行："cudagraph_capture_sizes": [${p.sizes}]`,
    captureSizesDefaultFix: (p) =>
      `${p.script} 第 ${p.line} 行：--compilation-config '{"cudagraph_mode": "${p.mode ?? 'FULL_DECODE_ONLY'}", "cudagraph_capture_sizes": [${p.sizes}]}'   # 与 310P 指南一样只用两个尺寸；或使用 --enforce-eager`,
    eagerIgnoresGraphs: (p) =>
      `--enforce-eager（${p.eagerAt}）关闭了编译，因此 --compilation-config 的图模式设置（${p.configAt}：${p.keys}）被忽略：不会捕获任何图（${p.rule}）`,
    eagerIgnoresGraphsFix: (p) =>
      `${p.script}：要捕获图，删除 --enforce-eager（第 ${p.eagerLine} 行）；要以 eager 运行，删除 --compilation-config（第 ${p.configLine} 行）中的图模式键`,
    missingValue: (p: { flag: string; at: string }) => `${p.flag}（${p.at}）没有值：vllm 拒绝启动`,
    missingValueFix: (p: { script: string; line: number; flag: string }) => `${p.script} 第 ${p.line} 行：${p.flag} <值>`,
    noModel: (p: { form: string; at: string }) => `${p.at} 的 ${p.form} 没有指定模型`,
    noModelFix: (p: { script: string; line: number }) => `${p.script} 第 ${p.line} 行：vllm serve /path/to/weights ...`,
    extraPositional: (p: { text: string; at: string }) => `"${p.text}"（${p.at}）是第二个位置参数：vllm 只接受模型这一个（某个参数丢了 "--"？）`,
    extraPositionalFix: (p: { script: string; line: number }) => `${p.script} 第 ${p.line} 行：删除它，或补上它所属的参数`,
    wholeNumberFix: (p: { script: string }) => `${p.script}：把规模写成整数`,
    fromInvocation: (p: { values: string; invocation: string; count: number }) =>
      `规模来自调用方：${p.values}；${p.invocation} 传入的${p.count === 1 ? '值' : ` ${p.count} 个值`}在运行时计算，此处不据此推导任何结论`,
    fromTemplate: (p: { values: string; script: string; positional: boolean }) =>
      `规模来自调用方：${p.values}；${p.script} 是一个模板，由${p.positional ? '脚本的参数填写（由启动器运行它，如 examples/external_online_dp/launch_online_dp.py 运行 run_dp_template.sh）' : '脚本本身没有设置的变量填写（由调用方 export）'}，此处不据此推导任何结论`,
    fromCallerFix: (p: { script: string }) => `检查带参数运行 ${p.script} 的那个脚本（对写入实际值的副本运行 qprep check --launch）`,
    givenTwice: (p: { flag: string; before: string; after: string; line: number }) =>
      `--${p.flag} 出现两次且值不同（${p.before}，之后第 ${p.line} 行为 ${p.after}）：vllm 以最后一个为准`,
    givenTwiceFix: (p: { script: string; flag: string }) => `${p.script}：只保留一个 --${p.flag}`,
    mtpSizes: (p: { tokens: number; step: number; odd: number[] }) =>
      `使用 MTP（num_speculative_tokens ${p.tokens}）时捕获尺寸应为 ${p.step} 的倍数；${p.odd.join('、')} 不是`,
    mtpSizesFix: (p: { script: string; line: number; sizes: string }) => `${p.script} 第 ${p.line} 行："cudagraph_capture_sizes": [${p.sizes}]`,
    allRead: (p: { count: number; form: string; json: string | null }) => `已读取 ${p.form} 的 ${p.count} 个参数${p.json !== null ? `；${p.json} 是合法 JSON` : ''}`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
    moreFixes: (p: { count: number; listed: number }) => `……另有 ${p.count} 处修复（证据列出前 ${p.listed} 个问题，并给出问题总数）`,
  },
  'launch.network': {
    title: '启动脚本中的地址和网卡属于本主机',
    why:
      'HCCL_IF_IP 必须是本主机的地址，*_SOCKET_IFNAME 指定的网卡必须处于 up 状态并承载该地址，否则 HCCL root-info、Gloo 和 TP 套接字' +
      '会绑定到别处或无法绑定（加载权重后出现 "Connection closed by peer" 或建链超时）。主节点地址（--data-parallel-address、node0_ip）' +
      '必须是其他节点可达的 IP；遗留的代理变量会把内部请求发往代理。',
    reads: ['--launch 脚本（不执行）', '网络接口', '到主节点的 TCP 连接（需要 --data-parallel-rpc-port）'],
    fix: '把 HCCL_IF_IP / local_ip 设为本主机的地址，把网卡变量设为承载该地址的网卡，把主节点地址设为 node 0 的 local_ip；在脚本开头 unset 代理变量。',
    noInterfaces: (p: { problem: string }) => `无法列出网络接口：${p.problem}`,
    noInterfacesFix: '在能看到宿主机网络的环境中运行 qprep（docker run --net=host），然后重新运行',
    fixExport: (p: { name: string; value: string; comment: string }) => `export ${p.name}="${p.value}"   # ${p.comment}`,
    fixAt: (p: { script: string; line: number; name: string; value: string; comment: string }) => `${p.script} 第 ${p.line} 行：${p.name}="${p.value}"   # ${p.comment}`,
    computed: (p: { variable: string; dynamic: string }) => `${p.variable} 在运行时计算（${p.dynamic}）`,
    writtenLiterally: '直接写出，以便检查',
    thisHostAddress: '<本主机地址>',
    hostAddressOn: (p: { nic: string | null }) => `本主机${p.nic !== null ? `在 ${p.nic} 上` : ''}的地址`,
    empty: (p: { variable: string }) => `${p.variable} 为空`,
    notIp: (p: { variable: string; value: string }) => `${p.variable} 为 "${p.value}"，不是 IP 地址`,
    notLocal: (p: { variable: string; ip: string; local: string }) => `${p.variable} 为 ${p.ip}，不是本主机的地址（本主机有 ${p.local}）`,
    noIpv4: '无 IPv4 地址',
    addressDown: (p: { variable: string; ip: string; nic: string }) => `${p.variable} ${p.ip} 位于 ${p.nic}，该网卡处于 down 状态`,
    addressUpFix: (p: { nic: string }) => `sudo ip link set ${p.nic} up   # 或使用处于 up 状态的网卡的地址`,
    unreachableLocal: (p: { variable: string; ip: string; nodes: number }) => `${p.variable} 为 ${p.ip}，其他节点无法访问（数据并行跨 ${p.nodes} 个节点）`,
    reachableAddress: '其他节点可达的地址',
    checkedAddress: (p: { name: string; ip: string; nic: string }) => `${p.name} ${p.ip} 位于 ${p.nic}`,
    interfaceOf: (p: { ip: string | null }) => (p.ip !== null ? `承载 ${p.ip} 的网卡` : '承载本节点地址的网卡'),
    checkedExcludes: (p: { name: string; excluded: string }) => `${p.name} 排除 ${p.excluded}`,
    noMatch: (p: { variable: string; value: string; interfaces: string }) => `${p.variable} 为 "${p.value}"，本主机没有与之匹配的网卡（网卡：${p.interfaces}）`,
    manyMatch: (p: { variable: string; value: string; count: number; matched: string }) =>
      `${p.variable} "${p.value}" 匹配 ${p.count} 个网卡（${p.matched}），HCCL 使用第一个`,
    exactName: '使用精确名称（"=" 前缀），HCCL 就没有选择余地',
    noSuchInterface: (p: { variable: string; name: string; interfaces: string }) => `${p.variable} 指定的 ${p.name} 在本主机上不存在（网卡：${p.interfaces}）`,
    interfaceDown: (p: { variable: string; name: string }) => `${p.variable} 指定的 ${p.name} 处于 down 状态`,
    interfaceUpFix: (p: { name: string; suggestion: string }) => `sudo ip link set ${p.name} up   # 或指定处于 up 状态的网卡（${p.suggestion}）`,
    otherInterface: (p: { variable: string; name: string; ip: string; actual: string | null }) =>
      `${p.variable} 指定的是 ${p.name}，但 HCCL_IF_IP ${p.ip} 位于${p.actual !== null ? ` ${p.actual}` : '另一个网卡'}：二者必须指向同一个网卡`,
    checkedUp: (p: { name: string; nic: string }) => `${p.name} ${p.nic} 处于 up 状态`,
    addressFlag: (p: { at: string }) => `--data-parallel-address（${p.at}）`,
    addressFlagFix: (p: { script: string; line: number; value: string; comment: string }) => `${p.script} 第 ${p.line} 行：--data-parallel-address ${p.value}   # ${p.comment}`,
    noAddressFlag: (p: { script: string; local: number; dp: number }) =>
      `${p.script} 服务 ${p.dp} 个数据并行 rank 中的 ${p.local} 个（其余在其他节点上），但没有 --data-parallel-address：vLLM 会使用 127.0.0.1，其他节点无法访问`,
    noAddressFlagFix: (p: { script: string; line: number; address: string | null; starts: boolean }) =>
      `${p.script} 第 ${p.line} 行：--data-parallel-address ${p.address ?? '<启动 rank 0 的节点的地址>'}   # ${p.starts ? '本节点启动 rank 0：填它自己的地址' : 'node 0 的 local_ip'}，实例的每个节点都相同`,
    nodeZeroAddress: '<node 0 的地址>',
    ownAddressNodeZero: '本节点是 node 0（起始 rank 为 0）：填它自己的地址',
    nodeZeroLocalIp: 'node 0 的 local_ip',
    masterNotLocal: (p: { master: string; value: string }) => `本节点启动数据并行 rank 0（主节点），但 ${p.master} ${p.value} 不是它的地址`,
    masterIsThis: '主节点就是本节点：填它自己的地址',
    notMaster: (p: { master: string; value: string; start: number; headless: boolean }) =>
      `${p.master} ${p.value} 是本主机，但本节点不是主节点（起始 rank ${p.start}${p.headless ? '，--headless' : ''}）`,
    accepts: (p: { address: string; port: number }) => `${p.address}:${p.port} 接受连接`,
    notCaptured: (p: { address: string; port: number }) => `快照中没有记录 ${p.address}:${p.port} 是否应答`,
    refused: (p: { address: string; port: number }) => `${p.address} 有应答（端口 ${p.port} 拒绝连接：尚无进程监听）`,
    noAnswer: (p: { address: string; port: number; error: string | null }) => `${p.address}:${p.port} 没有应答（${p.error ?? '无应答'}）`,
    reachDetail: (p: { master: string; detail: string }) => `${p.master}：${p.detail}`,
    recordAgainFix: (p: { file: string }) => `用此脚本重新录制快照（qprep snapshot --launch ${p.file}）`,
    routeFix: (p: { address: string; port: number }) =>
      `检查本节点到 ${p.address} 的路由和防火墙（ping ${p.address}；nc -vz ${p.address} ${p.port}），或更正地址`,
    checkedMaster: (p: { value: string; local: boolean }) => `主节点 ${p.value}${p.local ? '（本主机）' : ''}`,
    proxyAt: (p: { name: string; line: number | null }) => (p.line === null ? `${p.name}（继承自环境）` : `${p.name}（第 ${p.line} 行）`),
    proxies: (p: { where: string }) => `代理变量会传给 vllm：${p.where}`,
    proxiesFix: (p: { names: string; script: string }) => `unset ${p.names}   # 写在 ${p.script} 开头，与指南一致`,
    noneSet: (p: { script: string }) => `${p.script} 没有设置 HCCL_IF_IP、套接字网卡或主节点地址：HCCL 和 Gloo 自行选择网卡（单节点时没有问题）`,
    allGood: (p: { script: string; checked: string }) => `${p.script}：${p.checked}`,
    masterAddrOneNode: (p) =>
      `${p.flag} ${p.value}（${p.at}）指定的是多节点启动（配合 --nnodes 和 --node-rank）的主节点，而该服务只运行在一个节点上：` +
      `它并不设置 API server 监听的地址，那是 --host 的作用（${p.rule}）`,
    masterAddrOneNodeFix: (p) =>
      p.hostGiven
        ? `${p.script} 第 ${p.line} 行：删除 ${p.flag} ${p.value}   # 单节点：--host 已设置监听地址`
        : `${p.script} 第 ${p.line} 行：用 --host ${p.value} 代替 ${p.flag} ${p.value}   # 或为跨 N 个节点的启动加上 --nnodes N --node-rank R`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
  },
  'launch.mooncake': {
    title: 'Mooncake 的 Ascend 传输：CANN、超时、库路径',
    why:
      'Mooncake KV connector（PD 分离、KV 池）通过 Mooncake 的 Ascend direct 传输搬运 KV cache，vllm-ascend 指南为它规定了几条规则：' +
      'CANN 高于 8.3.RC1；ASCEND_TRANSFER_TIMEOUT 大于 RDMA 重传时间（4.096 us × 2^HCCL_RDMA_TIMEOUT × 7 次重试）；' +
      'ASCEND_CONNECT_TIMEOUT 约为每张 decode 卡 500 毫秒；LD_LIBRARY_PATH 中包含其库所在目录。任何一条不满足，都要到第一次传输时才以超时或导入失败的形式出现。' +
      '每条规则都按已安装的 vllm-ascend 版本判断（knowledge/rules.json）。',
    reads: ['--launch 脚本（不执行）：--kv-transfer-config 及其环境', 'CANN 安装记录', '启动脚本所用 Python 的 site-packages（mooncake）'],
    fix: '安装高于 8.3.RC1 的 CANN，按指南设置超时，并把 Mooncake 的库目录加入 LD_LIBRARY_PATH。',
    noServer: (p) => `${p.script} 没有启动 vLLM 服务：没有可检查的 KV connector（原因见 launch.script）`,
    noMooncake: (p) => `${p.script} 未使用 Mooncake KV connector`,
    noMooncakeFix: '无需处理：Mooncake 的规则只适用于使用 Mooncake connector 的 --kv-transfer-config',
    cannAbove: (p) => `CANN ${p.version}（高于 ${p.above}）`,
    cannTooOld: (p) => `CANN ${p.version} 不高于 ${p.above}，而 Mooncake 的 Ascend direct 传输需要更新的版本（${p.rule}）`,
    cannFix: (p) => `使用高于 ${p.above} 的 CANN（该版本的 vllm-ascend 镜像，或其安装页面）`,
    transferAbove: (p) => `ASCEND_TRANSFER_TIMEOUT ${p.transfer} 毫秒，大于 ${p.need} 秒（HCCL_RDMA_TIMEOUT ${p.rdma}）`,
    transferShort: (p) =>
      `ASCEND_TRANSFER_TIMEOUT 为 ${p.transfer} 毫秒${p.transferSet ? '' : '（未设置：指南所说的默认值）'}，不大于 RDMA 重传时间 ` +
      `4.096 us × 2^${p.rdma} × ${p.retries} = ${p.need} 秒（HCCL_RDMA_TIMEOUT ${p.rdma}${p.rdmaSet ? '' : '，CANN 默认值'}）：RDMA 仍在重试时 KV 传输就已放弃（${p.rule}）`,
    transferFix: (p) =>
      `export ASCEND_TRANSFER_TIMEOUT=${p.enough}   # 在 ${p.script} 的 vllm serve 之前；或调低 HCCL_RDMA_TIMEOUT（kv_pool.md 设为 17，配合 10000 毫秒），集合通信也会读取它`,
    transferDefaults: 'HCCL_RDMA_TIMEOUT 和 ASCEND_TRANSFER_TIMEOUT 使用默认值（Mooncake 自身的默认值，其各版本不同：未判断）',
    connectDefault: (p) => `ASCEND_CONNECT_TIMEOUT 使用 Mooncake 对 ${p.cards} 张 decode 卡的默认值（未判断：其各版本不同）`,
    connectEnough: (p) => `ASCEND_CONNECT_TIMEOUT ${p.connect} 毫秒，对应 ${p.cards} 张 decode 卡`,
    connectShort: (p) =>
      `ASCEND_CONNECT_TIMEOUT 为 ${p.connect} 毫秒${p.set ? '' : '（未设置：指南所说的默认值）'}，小于 ${p.perCard} 毫秒 × ${p.cards} 张 decode 卡 = ${p.need} 毫秒：` +
      `当所有 decode 卡同时连接同一张 prefill 卡时，最后几张会超时（${p.rule}）`,
    connectFix: (p) => `export ASCEND_CONNECT_TIMEOUT=${p.need}   # 在 ${p.script} 的 vllm serve 之前`,
    libraryPathHolds: (p) => `LD_LIBRARY_PATH 包含 ${p.dirs}`,
    libraryPathMissing: (p) =>
      `LD_LIBRARY_PATH ${p.value === null || p.value === '' ? '未设置' : `（${p.value}）既不包含 /usr/local/lib、/usr/local/lib64，也不包含 ${p.dir}`}：` +
      `指南把 Mooncake 的库目录放在这里，供 connector 加载（${p.rule}）`,
    libraryPathFix: (p) => `export LD_LIBRARY_PATH=${p.dir}:/usr/local/lib:/usr/local/lib64:$LD_LIBRARY_PATH   # 在 ${p.script} 的 vllm serve 之前`,
    noPackage: '此处启动脚本所用的 Python 中没有 mooncake 包，未判断 LD_LIBRARY_PATH（请在提供服务的容器中运行 qprep）',
    passed: (p) => `${p.script}：${p.connectors}${p.checked !== null ? `：${p.checked}` : ''}`,
    andMore: (p) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
  },
  'launch.cpu-binding': {
    title: 'CPU 绑核就绪：每个 NPU 的 CPU 数、OMP_PROC_BIND',
    why:
      '从 v0.18.0rc1 起，vllm-ascend 在 ARM 服务器上把每个 worker、它的 ACL 和 release 线程以及 NPU 中断绑定到各自的 CPU。' +
      '它把允许使用的 CPU（Cpus_allowed_list：容器的 cpuset）分给本节点的每个 NPU，每个 NPU 需要 5 个；不足时打印 "Insufficient CPUs for binding" 并以不绑核方式运行，' +
      '各 worker 之间会争抢 CPU。OMP_PROC_BIND 不为 false 时，PyTorch 的 libgomp 会在绑核之前把进程固定到一个 CPU 上，随后绑核失败。每条规则都按已安装的版本判断。',
    reads: ['/proc/self/status（Cpus_allowed_list）', 'npu-smi info（本节点的 NPU）', '--launch 脚本（不执行）：--additional-config、OMP_PROC_BIND'],
    fix: '为容器分配本节点每个 NPU 至少 5 个 CPU（或减少可见 NPU），并 export OMP_PROC_BIND=false。',
    noServer: (p) => `${p.script} 没有启动 vLLM 服务：无需绑核（原因见 launch.script）`,
    tooFewCpus: (p) =>
      `cpuset 为本节点的 ${p.npus} 个 NPU 提供 ${p.cpus} 个 CPU：每个 NPU ${p.perNpu} 个，少于 vllm-ascend 绑核所需的 ${p.minimum} 个；` +
      `它会打印 "Insufficient CPUs for binding"，各 worker 不绑核运行（${p.rule}）`,
    tooFewCpusFix: (p) =>
      `为容器分配至少 ${p.need} 个 CPU（docker run --cpuset-cpus、pod 的 CPU request），或关闭绑核：--additional-config '{"enable_cpu_binding": false}'`,
    ompProcBind: (p) =>
      `OMP_PROC_BIND=${p.value}${p.line !== null ? `（${p.script}:${p.line}）` : '（继承）'}：PyTorch 的 libgomp 在导入时就把进程固定到一个 CPU 上，` +
      `早于 vllm-ascend 的绑核，绑核随后找不到其 NPU 对应的 CPU（"conflict with NUMA affinity"）；指南中设置为 false（${p.rule}）`,
    ompProcBindFix: (p) => `${p.script} 第 ${p.line} 行：export OMP_PROC_BIND=false`,
    ompProcBindInheritedFix: 'export OMP_PROC_BIND=false   # 写在启动脚本中 vllm serve 之前',
    notRead: (p) => `${p.script}：无法读取 cpuset（${p.path} 的 Cpus_allowed_list）或本节点的 NPU：未判断 vllm-ascend 绑核时每个 NPU 的 CPU 数`,
    notReadFix: '在提供服务的容器中运行 qprep check，那里的 npu-smi 和 /proc/self/status 与 vLLM 看到的一致',
    separator: '；',
    ready: (p) =>
      `${p.script}：` +
      (p.disabled
        ? '已关闭 CPU 绑核（enable_cpu_binding 为 false）'
        : p.arch !== 'aarch64'
          ? `${p.arch} 上不绑核（vllm-ascend 只在 ARM 上绑核）`
          : p.outside !== null
            ? `未对 vllm-ascend ${p.outside.installed} 判断每个 NPU 的 CPU 数（规则 ${p.outside.rule} 从 ${p.outside.from} 起适用）`
            : p.perNpu !== null
            ? `cpuset 中每个 NPU ${p.perNpu} 个 CPU（${p.npus} 个 NPU）`
            : '无法读取 cpuset 或 NPU，未判断每个 NPU 的 CPU 数') +
      (p.omp !== null ? `；OMP_PROC_BIND=${p.omp}` : ''),
  },
};

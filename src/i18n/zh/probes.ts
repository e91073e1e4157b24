import type { probes as en } from '../en/probes.js';

/** a space between a Chinese word and a Latin one that follows it: "的 LLDP 邻居" */
const spaced = (word: string) => (/^[\x21-\x7e]/.test(word) ? ` ${word}` : word);

export const probes: typeof en = {
  file: {
    notFound: (p) => `${p.path}：文件或目录不存在`,
    denied: (p) => `${p.path}：权限不足`,
    notCaptured: (p) => `${p.path}：快照中未录制`,
    exists: (p) => `${p.path}：已存在`,
    other: (p) => `${p.path}：${p.message}`,
  },
  command: {
    timedOut: (p) => `"${p.line}" 未在 ${p.timeoutMs} ms 内结束，已连同其子进程一起终止`,
    notFound: (p) => `"${p.line}"：找不到命令`,
    failure: (p) => `"${p.line}"：${p.failure}`,
    killed: (p) => `"${p.line}" 被 ${p.signal} 终止`,
    exited: (p) => `"${p.line}" 以退出码 ${p.exitCode} 退出${p.detail ? `：${p.detail}` : ''}`,
  },
  npu: {
    deviceOfChip: (p) => `设备 ${p.device}（NPU 卡 ${p.card} 芯片 ${p.chip}）`,
    card: (p) => `NPU ${p.card}`,
    noEccCounters: (p) => `"${p.line}" 没有输出任何 ECC 计数`,
    eccNotCaptured: (p) => `快照中没有 "${p.line}" 的记录（录制时未执行）`,
    noNpuToAsk: 'npu-smi 没有给出可查询的 NPU',
    inventoryUnavailable: (p) => `无法检查 ${p.what}：${p.problem}`,
    sameCause: (p) => `${p.remediation}（npu.smi 报告了同一原因）`,
    problems: {
      notFound: (p) => `找不到 npu-smi（不在 PATH 中，也不在 ${p.dirs} 中）`,
      dcmi: (p) => `${p.line} 失败："${p.text}"（${p.name}：${p.cause}）`,
      libraryMissing: (p) => `${p.line} 无法启动：缺少 ${p.library}（${p.text}）`,
      noNpu: (p) => `${p.line} 输出：${p.text}`,
      killed: (p) => `${p.problem}${p.output ? `：${p.output}` : '，且没有任何输出'}`,
      exited: (p) => `${p.line} 以退出码 ${p.exitCode} 退出${p.output ? `：${p.output}` : '，且没有任何输出'}`,
      unparseable: (p) => `无法读取 ${p.line} 的输出：第 ${p.lineNumber} 行：${p.reason}${p.text ? `（"${p.text}"）` : ''}`,
    },
    remediation: {
      notFoundInContainer: (p) => `在 docker run 中加上 ${p.flag}（有些主机上它在 /usr/local/sbin：改为挂载该路径）`,
      notFoundOnHost: '安装 NPU 驱动包（npu-smi 随驱动提供），或将其所在目录加入 PATH',
      timeout:
        '驱动可能已卡死：查找卡住的 npu-smi 进程（ps -ef | grep npu-smi）和 dmesg 中的 davinci 错误；若持续存在，复位 NPU 或重启节点（或用更大的 --timeout 重新运行）',
      notCaptured: '在宿主机上用 "qprep snapshot -o FILE" 重新录制快照',
      flooded: 'npu-smi 输出远多于其表格：手动运行 "npu-smi info | head -50"，若输出是乱码则修复或重装驱动',
      notExecutable: '让当前用户可以执行 npu-smi，或以 root 运行 qprep',
      killed: (p) => `npu-smi 崩溃（${p.signal}）：手动运行 "npu-smi info"，在 dmesg 中查找 davinci 或 dcmi 错误；若一直崩溃则重装驱动`,
      failed: '手动运行该命令并阅读其输出；若 npu-smi 本身已损坏则重装驱动',
      libraryInContainer: (p) => `在 docker run 中加上 ${p.mount}`,
      underRoot: (p) =>
        `使用 --root ${p.root} 时，命令在 qprep 自身的环境中运行（它的 PATH、库和 /dev），而不是在 ${p.root} 中：用 ${p.flags} 把主机的工具挂进 qprep 的容器（Kubernetes 中：在相同路径挂载只读 hostPath 卷，见 examples/kubernetes/qprep-daemonset.yaml），或直接在主机上运行 qprep`,
      libraryUnderRoot: (p) =>
        `使用 --root ${p.root} 时，npu-smi 在 qprep 自身的环境中运行，其中缺少驱动库：在 qprep 的容器中加上 ${p.mount}（Kubernetes 中：在相同路径挂载只读 hostPath 卷）`,
      libraryOnHost: (p) => `重装 NPU 驱动包（${p.library} 属于它），然后运行 ldconfig`,
      noNpuInContainer: '将 NPU 传入容器（每块用 --device /dev/davinciN，以及各控制设备）',
      noNpuOnHost: '驱动看不到任何 NPU：检查 "lspci | grep -i d80" 和 dmesg，然后重装驱动和固件',
      unparseable: '附上输出报告此问题（"qprep snapshot -o FILE --only npu" 会录下它）',
    },
  },
  // ---- hccn.* 与 net.*（src/probes/hccn-scope.ts、src/probes/nic-link.ts）；键按字母序
  hccn: {
    busy: (p) => `"${p.command}" 在 ${p.seconds} 秒内 ${p.attempts} 次回答 "hccn_tool is busy"；本主机上另有程序在使用 hccn_tool`,
    cannotRead: (p) => `无法读取 ${p.total} 个设备中 ${p.failed} 个的${spaced(p.what)}（${p.devices}）：${p.problem}`,
    noDeviceSelected: (p) => `没有可检查的 NPU 设备：${p.source} ${p.selection} 未选中 npu-smi 列出的 ${p.listed} 个设备中的任何一个`,
    noNpuNetwork310p: (p) => `310P 系列没有参数面网络（无 RoCE 网口，无 hccn_tool）：${p.what}不适用；节点之间经主机网络通信`,
    noNpuNetwork310pFix: '此处无需处理；多节点 310P 部署依赖主机网络（net.host-nic）',
    noPingResult: (p) => `"${p.command}" 没有输出 ping 结果${p.reason !== null ? `：${p.reason}` : ''}`,
    notADevice: (p) => `拒绝为设备 "${p.device}" 运行 hccn_tool：不是设备编号`,
    notAnAddress: (p) => `拒绝 ping "${p.address}"：不是 IPv4 地址`,
    notFound: (p) => `找不到 ${p.tool}（已查找 ${p.searched}）`,
    selectionFix: (p) => `修正 ${p.source}（编号按可见设备从 0 计）`,
    singleNode: (p) => `${p.message}（单节点上只是警告：只有节点之间的流量走参数面网络；--cluster 或多节点 profile 会使其成为阻断项）`,
    toolBusyFix: '另一个程序一直占用 hccn_tool（exporter、监控循环）：在 qprep 运行期间暂停它，或在 profile 中调大 hccn.busyRetries',
    toolExpiredFix: '在 profile 中调大 hccn.peersBudget，或减少要 ping 的设备对（在集群文件中使用 plan: ring 或 same-index）',
    toolFailedFix: (p) => `手动运行 "${p.command}" 并查看其输出；驱动无法应答时需检查 "npu-smi info" 和 dmesg`,
    toolMissingInContainerFix: (p) => `在 docker run 中加上 ${p.flag}（npu.tools 报告了同一原因）`,
    toolMissingOnHostFix: '安装 NPU 驱动包（hccn_tool 随驱动安装在 /usr/local/Ascend/driver/tools）（npu.tools 报告了同一原因）',
    toolRefusedFix: '报告此问题时请附上 "qprep snapshot -o snap.json --only hccn" 生成的快照',
    unparsable: (p) => `"${p.command}"：${p.reason}`,
  },
  nicLink: {
    halfDuplex: (p) => `${p.nic} 以半双工运行`,
    notForwarding: (p) => `${p.nic} 处于 ${p.state} 状态（operstate）`,
    slow: (p) => `${p.nic} 链路速率 ${p.speedMbps} Mb/s，低于多节点部署所需的 ${p.minMbps} Mb/s（host.nic.minSpeedMbps）`,
    summary: (p) => `${p.nic} ${p.speedMbps === null ? '未报告速率' : `${p.speedMbps} Mb/s`}${p.halfDuplex ? ' 半双工' : ''}，MTU ${p.mtu ?? '未知'}`,
  },
  pings: {
    allOk: (p) => `全部 ${p.total} 次 ping 正常${p.skipped > 0 ? `（${p.skipped} 次已跳过）` : ''}`,
    failed: (p) => `${p.total} 次 ping 中有 ${p.failed} 次失败：${p.list}`,
    localReachesNone: (p) =>
      `${p.node} dev${p.device} 未能到达其 ${p.count} 个对端设备中的任何一个：检查它的链路、线缆和地址（hccn_tool -i ${p.device} -link -g；hccn_tool -i ${p.device} -ip -g）`,
    loss: (p) => `丢包 ${p.loss}`,
    nonePlannable: (p) => `无法规划任何 ping：${p.lines}`,
    nonePlanned: '没有规划 ping',
    notAssessed: (p) => `无法判定：${p.problem}`,
    notAssessedCount: (p) => `${p.total} 次中有 ${p.errors} 次无法判定：${p.list}`,
    notPlanned: (p) => `${p.localNode} dev${p.localDevice} -> ${p.peerNode}${p.peerDevice === null ? '' : ` dev${p.peerDevice}`}：未纳入计划：${p.reason}`,
    ok: '正常',
    pairOutcome: (p) => `${p.pair}（${p.outcome}）`,
    parts: (p) => p.parts.join('；'),
    peerAnswersNone: (p) => `${p.peer} 对 ${p.count} 次 ping 均无应答：该节点宕机或不在参数面网络上，或集群文件中它的设备 IP 有误`,
    peerDeviceAnswersNone: (p) => `${p.peer} dev${p.device} 对 ping 它的 ${p.count} 个本地设备均无应答：检查 ${p.peer} 上的该设备`,
    peerFailing: (p) => `失败 ${p.pairs}`,
    peerNotAssessed: (p) => `无法判定 ${p.pairs}`,
    peerOk: (p) => `${p.peer}：${p.total} 个中 ${p.ok} 个正常`,
    peerSkipped: (p) => `${p.count} 个已跳过`,
    ping: (p) => `${p.localNode} dev${p.localDevice} -> ${p.peerNode} dev${p.peerDevice}（${p.address}${p.hccs ? '，hccs' : ''}）`,
    result: (p) => `${p.ping}：${p.outcome}`,
    skipped: (p) => `已跳过：${p.reason}`,
    unreachable: '目的主机不可达',
  },
  // ---- hccn.* 与 net.* 结束
  // the Python, model and kernel-value probes (src/probes/python.ts, model.ts, files.ts), alphabetical by key
  model: {
    configProblem: (p) =>
      p.kind === 'missing'
        ? '没有 config.json'
        : p.kind === 'not-object'
          ? 'config.json 不是 JSON 对象'
          : p.kind === 'not-json'
            ? `config.json 不是合法的 JSON：${p.error}`
            : p.problem,
    notDirectory: (p) => `${p.path} 是${p.kind === 'file' ? '文件' : p.kind === 'symlink' ? '符号链接' : ` ${p.kind}`}，不是目录`,
  },
  python: {
    via: (p) =>
      p.kind === 'script-runs'
        ? `${p.python}，即启动脚本运行的解释器`
        : p.kind === 'shebang'
          ? `${p.launcher} 的 #! 行`
          : `PATH 中的第一个 python3${p.missing === null ? '' : `，未找到 ${p.missing}`}`,
  },
  value: {
    notInteger: (p) => `${p.path}：应为整数，实际为 "${p.got}"`,
  },
};

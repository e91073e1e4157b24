import type { probes as en } from '../en/probes.js';

export const probes: typeof en = {

  // ---- hccn.* 与 net.*（src/probes/hccn-scope.ts、src/probes/nic-link.ts）；键按字母序
  hccn: {
    cannotRead: (p) => `无法读取 ${p.total} 个设备中 ${p.failed} 个的${p.what}（${p.devices}）：${p.problem}`,
    noDeviceSelected: (p) => `没有可检查的 NPU 设备：${p.source} ${p.selection} 未选中 npu-smi 列出的 ${p.listed} 个设备中的任何一个`,
    noNpuNetwork310p: (p) => `310P 系列没有参数面网络（无 RoCE 网口，无 hccn_tool）：${p.what.trim()}不适用；节点之间经主机网络通信`,
    noNpuNetwork310pFix: '此处无需处理；多节点 310P 部署依赖主机网络（net.host-nic）',
    singleNode: (p) => `${p.message}（单节点上只是警告：只有节点之间的流量走参数面网络；--cluster 或多节点 profile 会使其成为阻断项）`,
    selectionFix: (p) => `修正 ${p.source}（编号按可见设备从 0 计）`,
    toolBusyFix: '另一个程序一直占用 hccn_tool（exporter、监控循环）：在 qprep 运行期间暂停它，或在 profile 中调大 hccn.busyRetries',
    toolExpiredFix: '在 profile 中调大 hccn.peersBudget，或减少要 ping 的设备对（在集群文件中使用 plan: ring 或 same-index）',
    toolFailedFix: (p) => `手动运行 "${p.command}" 并查看其输出；驱动无法应答时需检查 "npu-smi info" 和 dmesg`,
    toolMissingInContainerFix: (p) => `在 docker run 中加上 ${p.flag}（npu.tools 报告了同一原因）`,
    toolMissingOnHostFix: '安装 NPU 驱动包（hccn_tool 随驱动安装在 /usr/local/Ascend/driver/tools）（npu.tools 报告了同一原因）',
    toolRefusedFix: '报告此问题时请附上 "qprep snapshot -o snap.json --only hccn" 生成的快照',
  },
  nicLink: {
    halfDuplex: (p) => `${p.nic} 以半双工运行`,
    notForwarding: (p) => `${p.nic} 处于 ${p.state} 状态（operstate）`,
    slow: (p) => `${p.nic} 链路速率 ${p.speedMbps} Mb/s，低于多节点部署所需的 ${p.minMbps} Mb/s（host.nic.minSpeedMbps）`,
    summary: (p) => `${p.nic} ${p.speedMbps === null ? '未报告速率' : `${p.speedMbps} Mb/s`}${p.halfDuplex ? ' 半双工' : ''}，MTU ${p.mtu ?? '未知'}`,
  },
  // ---- hccn.* 与 net.* 结束
  npu: {
    deviceOfChip: (p) => `设备 ${p.device}（NPU 卡 ${p.card} 芯片 ${p.chip}）`,
    card: (p) => `NPU ${p.card}`,
    inventoryUnavailable: (p) => `无法检查${p.what}：${p.problem}`,
    sameCause: (p) => `${p.remediation}（npu.smi 报告了同一原因）`,
  },
};

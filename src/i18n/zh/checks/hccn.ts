import type { hccn as en } from '../../en/checks/hccn.js';

export const hccn: typeof en = {
  'hccn.conf': {
    title: '/etc/hccn.conf 存在且与当前配置一致',
    why:
      '/etc/hccn.conf 在重启后保留每个设备的地址（address_N、netmask_N 等），Mooncake 和 HIXL（PD 分离）从中读取设备 IP：' +
      '容器中没有该文件时，服务能启动但返回错误结果。在容器中它必须从宿主机绑定挂载，而不是打进镜像的副本，副本会过期。' +
      '每个设备都需要一个 address_N，且与 hccn_tool -i N -ip -g 当前报告的地址一致。',
    reads: ['/etc/hccn.conf', '/proc/self/mountinfo（容器中）', 'hccn_tool -i <device> -ip -g'],
    fix: '在宿主机上用 hccn_tool -i N -ip -s address <ip> netmask <mask> 设置每个地址（它会写入该文件）；在容器中为 docker run 加上 -v /etc/hccn.conf:/etc/hccn.conf。',
    what: '文件 /etc/hccn.conf',
    readWhat: '用于比对的设备 IP',
    notInContainer: (p) => `此容器中没有 ${p.file}：HCCL 集合通信不需要它，但 Mooncake 和 HIXL（PD 分离）从中读取设备 IP`,
    addMount: (p) => `在 docker run 中加上 ${p.flag}`,
    absent: (p) => `${p.file} 不存在：设备 IP 未持久化，下次重启后会丢失`,
    absentFix: (p) => `为每个设备设置地址：hccn_tool -i ${p.device} -ip -s address <ip> netmask <mask>（它会写入 ${p.file}），每个设备都要设置`,
    cannotRead: (p) => `无法读取 ${p.problem}`,
    unparsableFix: (p) => `修正 ${p.file} 中指出的那一行（每行 key_N=value），或用 hccn_tool -i N -ip -s address <ip> netmask <mask> 重新生成`,
    unreadableFix: (p) => `使 ${p.file} 可读（以 root 运行 qprep）`,
    imageCopy: (p) => `此容器中的 ${p.file} 是镜像中的副本，而不是宿主机的文件：宿主机的设备 IP 变化后它就会过期`,
    noAddress: (p) => `${p.devices} 没有 address_N`,
    addressDiffers: (p) => `address_${p.device}=${p.written}（第 ${p.line} 行），但设备的地址是 ${p.real}`,
    addressGone: (p) => `address_${p.device}=${p.written}，但设备当前没有地址`,
    netmaskDiffers: (p) => `netmask_${p.device}=${p.written}，但设备的掩码是 ${p.real}`,
    oneProblem: (p) => `${p.file}：${p.problem}`,
    problems: (p) => `${p.file} 有 ${p.count} 个问题：${p.list}`,
    persistFix: (p) =>
      `持久化当前运行的地址：hccn_tool -i N -ip -s address <ip> netmask <mask> 会重写 address_N（若是设备上的地址错了，则修正文件）${p.inContainer ? '；在容器中请修正宿主机上的文件' : ''}`,
    setMissingFix: (p) => `设置缺失的地址：hccn_tool -i ${p.device} -ip -s address <ip> netmask <mask>`,
    current: (p) => `${p.file} 为全部 ${p.devices} 个设备记录了地址，与当前运行的地址一致${p.inContainer ? '，且从宿主机挂载' : ''}`,
  },
  'hccn.gateway': {
    title: 'NPU 默认网关',
    why:
      '每个 NPU 网口把目的地在本子网之外的流量经默认网关转发。当集群的设备 IP 分属多个子网（每个机柜、每个交换平面一个）时，' +
      '没有网关的网口无法到达对端，HCCL 报 "Transport init error ... Create Dest error"。不在网口自身子网内的网关永远不可达。' +
      '没有 --cluster（或所有对端都在同一子网）时，缺少网关只是警告。',
    reads: ['hccn_tool -i <device> -gateway -g', 'hccn_tool -i <device> -ip -g', '集群文件（对端设备 IP）'],
    fix: 'hccn_tool -i N -gateway -s gateway <设备子网的路由器>（以 gateway_N 持久化到 /etc/hccn.conf）。',
    what: '各 NPU 网关',
    readGateway: '网关',
    readIp: '设备 IP',
    needed: (p) => `${p.count} 个没有网关的设备有位于其他子网的对端（${p.devices}；例如 ${p.node} dev${p.device} ${p.ip}）`,
    foreign: (p) => `网关不在设备子网内：${p.list}`,
    foreignItem: (p) => `${p.device}（${p.gateway}，设备地址 ${p.ip}/${p.prefix}）`,
    both: (p) => `${p.needed}；${p.foreign}`,
    setFix: (p) => `hccn_tool -i ${p.device} -gateway -s gateway <${p.ip ?? '设备'}/${p.prefix ?? '?'} 的路由器>   （其他列出的设备同样处理）`,
    missing: (p) => `${p.total} 个设备中有 ${p.missing} 个没有默认网关（${p.devices}）；只要所有对端都在同一子网内就没有问题`,
    missingFix: (p) => `hccn_tool -i ${p.device} -gateway -s gateway <设备子网的路由器>`,
    ok: (p) => `每个设备都有位于其子网内的网关（${p.gateways}）`,
  },
  'hccn.ip': {
    title: 'NPU 设备 IP',
    why:
      'HCCL 通过设备 IP 连接不同节点上的 NPU（超节点内的 A3：通过 vNIC IP）。设备没有地址、两个设备同一地址、掩码不一致，' +
      '或地址落在 hccn_tool 保留的 vNIC 网段内（A2 上为 192.168.2.0/24；A3 上为 192.168.0.0/21，超节点内为 192.0.0.0/8），' +
      '都会导致建链失败（"Transport init error ... Create Dest error"）。使用 --cluster 时，文件为本节点给出的地址必须是真实地址：对端会 ping 并连接它们。',
    reads: ['hccn_tool -i <device> -ip -g', 'hccn_tool -i <device> -vnic -g（A3）', 'npu-smi info -t spod-info（A3）', '集群文件'],
    fix: '为每个设备执行 hccn_tool -i N -ip -s address <ip> netmask <mask>（持久化到 /etc/hccn.conf），或修正集群文件。',
    what: '设备 IP',
    readIp: '设备 IP',
    readVnic: 'vNIC 地址',
    sharedBy: (p) => `${p.address} 同时在 ${p.devices.join(' 和 ')} 上`,
    noIp: (p) => `${p.devices} 没有 IP`,
    duplicate: (p) => `IP 重复：${p.duplicate}`,
    mixedNetmasks: (p) => `掩码不一致：${p.masks}`,
    notContiguous: (p) => `掩码 ${p.mask} 不是连续掩码`,
    inReserved: (p) => `${p.list} 落在保留网段 ${p.range} 内`,
    noVnic: (p) => `${p.devices} 没有 vNIC IP（A3 的 HCCS ping 和链路要用它）`,
    duplicateVnic: (p) => `vNIC IP 重复：${p.duplicate}`,
    fileDiffers: (p) => `集群文件给 ${p.node} ${p.device} 的地址是 ${p.listed}，设备上的是 ${p.real}`,
    fileVnicDiffers: (p) => `集群文件给 ${p.node} ${p.device} 的 vNIC 地址是 ${p.listed}，设备上的是 ${p.real}`,
    peerOwns: (p) => `${p.device} ${p.address} 在集群文件中也是 ${p.owner} 的地址`,
    ok: (p) =>
      `${p.count} 个设备 IP 均已设置且不重复（掩码 ${p.masks ?? '无'}）${p.vnics !== null ? `，${p.vnics} 个 vNIC IP` : ''}${p.asClusterFile ? '，与集群文件一致' : ''}`,
    oneProblem: (p) => p.problem,
    problems: (p) => `${p.count} 个地址问题：${p.list}`,
    setFix: (p) => `hccn_tool -i ${p.device} -ip -s address <ip> netmask <mask>（在 ${p.range} 之外），其他列出的设备同样处理；然后更新集群文件`,
    agreeFix: '使集群文件与设备一致：在每个节点上用 "qprep facts" 重新生成集群文件，或用 hccn_tool -i N -ip -s address <ip> netmask <mask> 设置地址',
    uniqueFix: '为每个设备在同一子网内分配各自的地址：hccn_tool -i N -ip -s address <ip> netmask <mask>',
  },
  'hccn.link': {
    title: 'NPU 网口链路 UP',
    why:
      '每个 A2/A3 NPU 都有自己的 RoCE 网口；节点之间的 HCCL 流量经它发出。网口 DOWN 时，权重加载完成后启动会失败，' +
      '报 "EJ0002 The network port is down"（plog："rdma init fail"）。vllm-ascend 部署指南要求多节点启动前每个设备都是 "link status: UP"。',
    reads: ['hccn_tool -i <device> -link -g'],
    fix: '重新插拔或更换 DOWN 网口的光模块或线缆，检查交换机端口，然后再次执行 hccn_tool -i N -link -g。',
    what: '各 NPU 网口链路',
    readWhat: '链路状态',
    allUp: (p) => `全部 ${p.count} 个 NPU 网口均为 UP`,
    notUp: (p) => `${p.total} 个 NPU 网口中有 ${p.down} 个不是 UP：${p.list}`,
    downFix: (p) =>
      `hccn_tool -i ${p.device} -cfg recovery   # 恢复该端口的链路\n` +
      `若仍为 DOWN，检查设备 ${p.device} 的光模块和线缆（hccn_tool -i ${p.device} -optical -g；hccn_tool -i ${p.device} -link_stat -g 中的 "link down count" 不断增长说明链路闪断）及其交换机端口，然后重新运行`,
  },
  'hccn.link-stability': {
    title: 'NPU 网口链路历史：24 小时内无闪断',
    why:
      '一小时前 DOWN 过又恢复的网口现在是 UP，hccn.link 也报 UP；但明天拖垮长作业或大规模部署的正是它（ERROR CQE、"The network port is down"）。' +
      'hccn_tool -link_stat -g 记录每个网口最近 10 次链路变化：最新记录为 LINK DOWN 表示网口当前不通；读取前 24 小时内的一次 DOWN 是闪断' +
      '（光纤接头脏污、光模块或线缆故障）；首次 LINK UP 之后几秒内的一对 DOWN/UP 是驱动拉起端口时的重新协商。' +
      '华为 device plugin 在 24 小时内出现 5 次链路 DOWN（故障码 81078603）后将 NPU 隔离；qprep serve 以同样方式跨多次运行计数。',
    reads: ['hccn_tool -i <device> -link_stat -g', 'knowledge/hccn-link-health.json（频次规则）'],
    fix: '对 DOWN 的网口执行 hccn_tool -i N -cfg recovery；对闪断的网口清洁光纤接头、重新插拔光模块，再次闪断则更换光模块或线缆，并检查交换机端口。',
    what: '各 NPU 网口的链路历史',
    readWhat: '链路历史',
    noHistory: '输出中没有任何 [devid N] 链路历史行',
    noHistoryFix: (p) => `hccn_tool -i ${p.device} -link_stat -g   # 查看其输出：不保留链路历史的驱动无法判断；请升级驱动，或以 --depth standard 运行（不读取链路历史）`,
    downItem: (p) => `${p.device} 自 ${p.since} 起 LINK DOWN`,
    escalatedItem: (p) => `${p.device} 在 24 小时内 DOWN 了 ${p.count} 次（按频次规则隔离至 ${p.until}）`,
    flapItem: (p) => `${p.device} 在 24 小时内 DOWN 了 ${p.count} 次${p.last ? `，最近一次在 ${p.last}` : ''}`,
    burstLine: (p) => `${p.devices} 仅在拉起时 DOWN 过：仅作提示，不算闪断`,
    downNow: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个按链路历史当前为 DOWN，无论计数器如何：${p.list}`,
    downFix: (p) =>
      `hccn_tool -i ${p.device} -cfg recovery   # 重新拉起该端口\n` +
      `or: hccn_tool -i ${p.device} -optical -g   # 若仍为 DOWN：查看光模块功率和标志（由 hccn.optics 判断）；重新插拔或更换光模块、线缆，检查交换机端口`,
    escalated: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个在 24 小时内 DOWN 了 ${p.times} 次或更多：${p.list}`,
    escalatedFix: (p) =>
      `在更换设备 ${p.device} 的光模块和线缆之前，把它从 ASCEND_RT_VISIBLE_DEVICES 和容器的 --device 参数中去掉（device plugin 的规则将其隔离至 ${p.until}）\n` +
      `or: hccn_tool -i ${p.device} -optical -g   # 找出弱通道，然后清洁接头并更换光模块或线缆`,
    flapped: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个在读取前 24 小时内（拉起之后）DOWN 过：${p.list}`,
    flapFix: (p) =>
      `hccn_tool -i ${p.device} -optical -g   # 各通道收发光功率和 LOS 标志：弱通道指向接头或光模块\n` +
      `or: 清洁设备 ${p.device} 的光纤接头并重新插拔其光模块；用 hccn_tool -i ${p.device} -link_stat -g 观察（出现新的 LINK DOWN 记录说明仍在闪断）`,
    stable: (p) => `全部 ${p.total} 个 NPU 网口均为 UP，读取前 24 小时内没有 DOWN${p.burst ? `；${p.burst} 仅在拉起时 DOWN 过一次（提示）` : ''}`,
  },
  'hccn.optics': {
    title: 'NPU 网口光模块在其阈值之内',
    why:
      '网口可能在 UP 状态下使用一个接收通道只有其他通道三分之一光功率的光模块：它带着被 FEC 掩盖的误码运行，直到闪断。' +
      'hccn_tool -optical -g 在读数旁打印光模块自身的告警阈值：温度或某通道的收/发光功率超出阈值即为失败。' +
      '在阈值之内，低于华为故障诊断工具告警值的通道（Rx 低于 0.6 mW）、通道间相差超过 3 dB、介质侧 SNR 低于 18 dB 或信号丢失标志为警告。' +
      '互相矛盾的字段（报告"not present"却给出功率的光模块；标记为无信号但接收功率正常的通道）会如实指出。',
    reads: ['hccn_tool -i <device> -optical -g', 'knowledge/hccn-link-health.json（告警值）'],
    fix: '清洁光纤接头并重新插拔光模块；通道仍超出阈值则更换光模块（或线缆），并检查同一链路交换机侧的光模块。',
    what: '各 NPU 网口的光模块',
    readWhat: '光模块',
    absent: '光笼中没有光模块',
    unreachable: '光模块的管理链路无响应（Control link unreachable）',
    initializing: '光模块仍在初始化：请再读一次',
    temperature: (p) => `温度 ${p.value} C，${p.high ? '高于' : '低于'}光模块的${p.high ? '高温' : '低温'}阈值 ${p.limit} C`,
    power: (p) => `${p.rx ? 'Rx' : 'Tx'} 通道 ${p.lane} 为 ${p.value} mW，${p.high ? '高于' : '低于'}光模块的${p.high ? '上限' : '下限'}阈值 ${p.limit} mW`,
    weak: (p) => `Rx 通道 ${p.lane} 为 ${p.value} mW，低于 ${p.limit} mW 告警值`,
    spread: (p) => `${p.rx ? 'Rx' : 'Tx'} 通道间相差 ${p.value} dB（通道 ${p.strongest} 到通道 ${p.weakest}；最多 ${p.limit} dB）`,
    snr: (p) => `通道 ${p.lane} 的介质侧 SNR 为 ${p.value} dB，低于 ${p.limit} dB`,
    flagSet: (p) => `${p.flag} ${p.value}`,
    presentContradiction: '光模块报告"not present"，却给出了温度和功率：字段互相矛盾',
    flagContradiction: (p) => `${p.flag} ${p.value} 表示通道 ${p.lanes} 丢失信号，但其功率正常：字段互相矛盾`,
    port: (p) => `${p.device}${p.module ? `（${p.module}）` : ''}：${p.findings}`,
    failing: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个的光模块超出其自身阈值或缺失：${p.list}`,
    failFix: (p) =>
      `hccn_tool -i ${p.device} -optical -g   # 再读一次：查看所列通道和阈值\n` +
      `or: 清洁设备 ${p.device} 的光纤接头并重新插拔其光模块；通道仍超出阈值则更换光模块（或线缆），并检查该链路交换机侧的光模块`,
    warning: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个的光模块需要关注：${p.list}`,
    warnFix: (p) =>
      `在下次维护时清洁设备 ${p.device} 的光纤接头，然后执行 hccn_tool -i ${p.device} -optical -g   # 弱通道应恢复到与其他通道相当；否则更换光模块\n` +
      `or: qprep serve --depth deep   # 其 /metrics 按通道给出 qprep_optical_rx_power_milliwatts，用于观察趋势`,
    contradictionFix: (p) =>
      `hccn_tool -i ${p.device} -optical -g   # 再读一次：锁存的标志读取后会清除\n` +
      `or: 若字段仍然矛盾，重新插拔设备 ${p.device} 的光模块`,
    unsupported: (p) => `该单板的 ${p.total} 个 NPU 网口不支持 hccn_tool -optical -g`,
    unsupportedFix: '此处无需处理：请改从单板管理（BMC）读取光模块信息',
    healthy: (p) =>
      `全部 ${p.total} 个 NPU 网口的光模块都在其自身阈值之内，没有低于告警值或与其他通道相差过大的通道${p.unread ? `；${p.unread} 没有光功率读数（铜缆，或没有光模块数据）` : ''}`,
  },
  'hccn.fec': {
    title: 'NPU 网口使用 RS-FEC',
    why:
      'NPU 网口运行的 100G 和 200G 以太网需要 Reed-Solomon 前向纠错：设为"no FEC mode"的网口可以与同样配置的交换机端口建链，' +
      '其误码随后以丢包、重传和 HCCL 超时的形式出现在 RoCE 上。华为故障诊断知识库把"no FEC mode"列为异常，' +
      '并用 hccn_tool -i N -fec -s encoding rs 设置 RS（hccn_tool 会写入 /etc/hccn.conf）。A3 上该工具无法查询或设置 FEC：此检查不适用。',
    reads: ['hccn_tool -i <device> -fec -g', 'hccn_tool -i <device> -speed -g（处于"no FEC mode"的网口）'],
    fix: '对每个处于"no FEC mode"的网口执行 hccn_tool -i N -fec -s encoding rs（持久化为 /etc/hccn.conf 中的 encoding_N），交换机端口也设为 RS-FEC。',
    what: '各 NPU 网口的 FEC 模式',
    readWhat: 'FEC 模式',
    a3: (p) => `A3：hccn_tool 无法查询或设置这 ${p.total} 个 NPU 网口的 FEC 模式（"This device does not support switching fec mode."）`,
    unsupported: (p) => `全部 ${p.total} 个 NPU 网口都回答 "does not support switching fec mode"`,
    unsupportedFix: '此处无需处理：这些网口的 FEC 模式由交换机侧和驱动设置',
    noFecItem: (p) => `${p.device}（${p.speedGbps === null ? '速率未知' : `${p.speedGbps} Gb/s`}）`,
    noFec: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个在需要 RS-FEC 的速率下未使用 FEC：${p.list}`,
    noFecUnknownSpeed: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个未使用 FEC：${p.list}；其速率无法说明是否需要 RS-FEC`,
    rsFix: (p) => `${p.command}   # RS-FEC，持久化到 /etc/hccn.conf；交换机端口也要设为 RS-FEC`,
    rs: (p) => `全部 ${p.total} 个 NPU 网口都使用 RS-FEC${p.auto ? `（${p.auto} 为协商模式：auto FEC mode）` : ''}${p.unqueried ? `；${p.unqueried} 无法查询` : ''}`,
  },
  'hccn.counters': {
    title: 'NPU 网口错误计数不增长',
    why:
      '网口承载流量时不断增长的坏包、FCS 错误、RoCE 错误、QP 状态错误和重传，说明链路在负载下正在劣化，远早于它 DOWN；' +
      'HCCL 指南把不断增长的 roce_new_pkt_rty_num 视为丢包。计数器从上次清零起累计，读一次说明不了什么：' +
      '此检查对每个网口间隔 3 秒读两次并判断增长（qprep serve 还会比较两次运行之间，24 小时内有 3 次运行增长则判为失败）。' +
      '从未承载过报文的网口为"未经流量检验"：其零错误不能证明任何事。',
    reads: ['hccn_tool -i <device> -stat -g（两次，间隔 3 秒）'],
    fix: '找出增长的计数器：链路层错误（bad、FCS）指向光模块和线缆（hccn.optics），RoCE 和重传计数指向链路或交换机（PFC、ECN、拥塞）；清洁或更换光模块、线缆，检查交换机端口。',
    what: '各 NPU 网口的错误计数',
    readWhat: '报文计数',
    grewItem: (p) => `${p.device} ${p.growth}（${p.seconds} 秒内）`,
    grewSinceItem: (p) => `${p.device} ${p.growth}（自 ${p.since} 的运行以来）`,
    grew: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个的错误计数增长：${p.list}`,
    grewFix: (p) =>
      `hccn_tool -i ${p.device} -stat -g   # 再读一次：哪个计数器在增长、增长多少\n` +
      `or: hccn_tool -i ${p.device} -optical -g   # bad 和 FCS 错误：光模块和线缆；重传：交换机端口（PFC、ECN）`,
    persistent: (p) => `${p.total} 个 NPU 网口中有 ${p.count} 个的错误计数在 24 小时内的 ${p.runs} 次或更多运行中增长：${p.list}`,
    persistentFix: (p) => `更换设备 ${p.device} 的光模块或线缆（hccn_tool -i ${p.device} -optical -g 可找出弱通道），并检查其交换机端口`,
    notExercised: (p) => `未经流量检验：${p.total} 个 NPU 网口自计数器清零后都没有承载过报文，其错误计数说明不了任何事`,
    notExercisedFix: '在有流量时再读一次（qprep serve --depth deep 会判断两次运行之间的增长），或先在这些网口上运行一次 HCCL 测试',
    steady: (p) =>
      `${p.total} 个 NPU 网口的错误计数在 ${p.seconds} 秒内都没有增长` +
      `${p.never ? `；未经流量检验：${p.never}（计数器清零后没有报文）` : ''}` +
      `${p.idle ? `；${p.idle} 在检查期间没有流量` : ''}` +
      `${p.unknown ? `；${p.unknown}：此 hccn_tool 不打印流量计数` : ''}` +
      `${p.counted ? `；此前累计错误：${p.counted}` : ''}` +
      `${p.notReadAgain > 0 ? `；${p.notReadAgain} 个未能及时再读` : ''}`,
  },
  'hccn.lldp': {
    title: 'NPU 网口可见所连交换机（LLDP）',
    why:
      'hccn_tool -lldp -g 显示每个 NPU 网口所连的交换机端口（Ifname）。应答为空表示没有 LLDP 邻居：线缆未插好，或交换机关闭了 LLDP。' +
      '这是找出接错线网口的最快方法，但不开 LLDP 的交换机也能正常工作，所以这里只是警告。',
    reads: ['hccn_tool -i <device> -lldp -g'],
    fix: '检查所列网口的线缆；若交换机关闭了 LLDP，请开启（或在 profile 中豁免此检查）。',
    what: '各网口的 LLDP 邻居',
    readWhat: 'LLDP 邻居',
    ok: (p) => `每个 NPU 网口都能看到交换机端口（${p.ports}）`,
    none: (p) => `${p.total} 个 NPU 网口中有 ${p.none} 个通过 LLDP 看不到交换机：${p.devices}`,
    noneFix: (p) => `检查设备 ${p.device} 的线缆，以及其交换机端口是否开启了 LLDP，然后执行：hccn_tool -i ${p.device} -lldp -g | grep Ifname`,
  },
  'hccn.net-health': {
    title: 'NPU 网络健康状态',
    why:
      '驱动从每个 NPU 网口向其 netdetect 地址探测，路径有应答时报告 "net health status: Success"；Fault、Receive timeout、Unreachable 等' +
      '表示该设备的 RoCE 平面已损坏。vllm-ascend 部署指南要求为 Success。Init 表示探测从未运行（没有 netdetect 地址）：' +
      '它不说明数据面的情况，所以是警告而不是失败（昇腾自己的 exporter 把它算作健康）。',
    reads: ['hccn_tool -i <device> -net_health -g'],
    fix: '对于 Fault 或超时，检查链路、设备 IP 和 netdetect 地址（它必须能 ping 通）；对于 Init，设置 netdetect 地址：hccn_tool -i N -netdetect -s address <gateway>。',
    what: '各 NPU 网口的网络健康状态',
    readWhat: '网络健康状态',
    unhealthy: (p) => `${p.total} 个 NPU 网口中有 ${p.bad} 个不健康：${p.list}`,
    unhealthyFix: (p) =>
      `检查设备 ${p.device}：链路（hccn_tool -i ${p.device} -link -g）、地址（hccn_tool -i ${p.device} -ip -g），以及其 netdetect 地址是否应答（hccn_tool -i ${p.device} -netdetect -g，然后从交换机一侧 ping 它）`,
    init: (p) => `${p.total} 个 NPU 网口中有 ${p.init} 个报告 Init（健康探测未运行：没有 netdetect 地址？）：${p.devices}`,
    initFix: (p) => `设置一个网口可达的 netdetect 地址，通常是其网关：hccn_tool -i ${p.device} -netdetect -s address <设备 ${p.device} 的网关>`,
    ok: (p) => `全部 ${p.count} 个 NPU 网口均报告 Success`,
  },
  'hccn.netdetect': {
    title: 'NPU netdetect 地址',
    why:
      '驱动通过探测 netdetect 地址来检查每个 NPU 网口的健康状态；没有该地址时，hccn_tool -net_health -g 一直停在 Init，' +
      'RoCE 路径损坏也无人察觉，直到 HCCL 超时。vllm-ascend 部署指南把它列为每个节点的检查项。HCCL 运行并不需要它，因此为建议项。',
    reads: ['hccn_tool -i <device> -netdetect -g', 'hccn_tool -i <device> -gateway -g'],
    fix: '设置一个每个网口都可达的地址，通常是其网关：hccn_tool -i N -netdetect -s address <gateway>（以 netdetect_N 持久化到 /etc/hccn.conf）。',
    what: '各设备的 netdetect 地址',
    readWhat: 'netdetect 地址',
    ok: (p) => `每个设备都有 netdetect 地址（${p.addresses}）`,
    unset: (p) => `${p.total} 个设备中有 ${p.unset} 个没有 netdetect 地址（其网络健康状态一直为 Init）：${p.devices}`,
    gatewayPlaceholder: '<设备的网关>',
    setFix: (p) => `hccn_tool -i ${p.device} -netdetect -s address ${p.address}   （${p.devices} 同样处理）`,
  },
  'hccn.peers': {
    title: '跨节点 NPU 之间的连通性',
    why:
      'HCCL 通过参数面网络连接不同节点的 NPU：TP/DP 集合通信中设备 i 连接每个对端的设备 i，跨节点专家并行和 PD KV 传输则可能是任意一对。' +
      '只要有一对不通，整个启动就会在权重加载完成后等待并以 "wait socket establish timeout" 失败。此检查从本节点用 hccn_tool 执行集群文件的 ping 计划' +
      '（RoCE 用 -ping；同一超节点内的 A3 对端用 -hccs_ping 到其 vNIC），每次一个调用，并列出每一对失败的设备。节点内部的设备对不 ping：' +
      '它们经 HCCS 通信，而且 A3 卡的两个 die 按设计不能互相 RoCE ping。链路 DOWN 的设备不 ping。',
    reads: ['集群文件（plan、peers、设备 IP）', 'hccn_tool -i <device> -link -g', 'hccn_tool -i <device> -ping -g address <peer IP>', 'hccn_tool -i <device> -hccs_ping -g address <peer vNIC IP>（A3）'],
    fix: '对每一对失败的设备检查两端：链路（hccn_tool -i N -link -g）、地址（-ip -g）、它们之间的交换机端口和 VLAN，以及集群文件中是否为对端的真实设备 IP（用 qprep facts 重新生成）。',
    what: '对端 ping',
    noCluster: '没有集群文件：没有可 ping 的对端',
    noClusterFix: '在多节点部署的每个节点上运行 "qprep check --cluster FILE"（YAML 节点列表，或每个节点 qprep facts 组成的 JSON 数组）',
    oneNode: (p) => `集群 ${p.file} 只有一个节点：没有可 ping 的对端`,
    oneNodeFix: '单节点无需处理',
    budgetSpent: (p) => `未尝试：ping 时间预算 ${p.budget}（profile hccn.peersBudget）已用完`,
    linkDown: (p) => `本地 ${p.device} 链路 DOWN（hccn.link）`,
    vnicDown: (p) => `本地 ${p.device} vNIC 链路 DOWN`,
    ownsNone: (p) => `${p.node} 的 ${p.pairs} 对设备都不由它负责：由 ${p.peers}（共 ${p.peerCount} 个对端）ping 它们（${p.plan}，pairs once）`,
    peerOwnedItem: (p) => `${p.node} ${p.count} 对`,
    peerOwned: (p) => `由对端 ping（pairs: once；qprep aggregate 汇总它们）：${p.list}`,
    peersListNoDevice: '对端没有列出任何设备',
    nonePlanned: (p) => `无法从 ${p.node} 规划任何 ping：${p.why}`,
    nonePlannedFix: '在集群文件中列出每个节点的设备及其 ip（A3 上还有 vnicIp），或用每个节点的 qprep facts 生成集群文件',
    notRun: (p) => `${p.total} 次 ping 中有 ${p.notRun} 次未运行（${p.reasons}）`,
    untried: (p) => `${p.total} 次 ping 中有 ${p.untried} 次未尝试：ping 时间预算 ${p.budget}（profile hccn.peersBudget）已用完`,
    parts: (p) => p.parts.join('；'),
    budgetFix: (p) =>
      `在 profile 中调大 hccn.peersBudget（未尝试的 ${p.untried} 对列在检查下方），或减少每个节点要 ping 的设备对（在集群文件中使用 plan: ring 加 ringK，或 same-index）`,
    failFix: (p) =>
      `从 ${p.ping} 开始：在 ${p.localNode} 上执行 hccn_tool -i ${p.localDevice} -link -g 和 -ip -g，在 ${p.peerNode} 上对设备 ${p.peerDevice} 做同样的检查，` +
      `然后检查它们之间的交换机端口；重试：hccn_tool -i ${p.localDevice} ${p.command} -g address ${p.address}`,
    notAssessed: (p) => `${p.total} 次 ping 中有 ${p.errors} 次无法判定：${p.list}`,
    notAssessedFix: '手动运行所列的 hccn_tool 命令；工具忙表示另一个程序在使用它（暂停该程序），超时则表示驱动卡死',
    noAddress: (p) => `全部 ${p.judged} 次 ping 正常，但计划中的 ${p.unplanned} 对设备没有可 ping 的地址：${p.list}`,
    noAddressFix: '在集群文件中为每个节点的每个设备写上 ip（A3 上还有 vnicIp），或用每个节点的 qprep facts 生成集群文件',
    pairsOnce: (p) => `，pairs once：另有 ${p.count} 对由对端 ping`,
    ok: (p) => `到 ${p.peers} 的全部 ${p.count} 次 ping 正常（${p.plan}，${p.methods}${p.once}）`,
    methods: (p) => p.methods.join(' 和 '),
    rotation: (p) => `第 ${p.rotation} 轮，共 ${p.rotations} 轮`,
    coverage: (p) =>
      `矩阵覆盖：${p.total} 对中有 ${p.ok} 对在 ${p.maxAgeS} 秒内得到验证` +
      (p.never > 0 ? `，${p.never} 对从未验证` : '') +
      (p.stale > 0 ? `，${p.stale} 对的验证已过期` : '') +
      (p.oldestAgeS !== null ? `；最早的验证在 ${p.oldestAgeS} 秒前` : ''),
    rollingFailed: (p) => `矩阵中有 ${p.failed} 对在最近一次 ping 时失败（rolling，${p.rotation}）`,
    rollingFailedFix: '失败的设备对在 evidence 中（rolling.proofs，state failed）：检查两端的链路和地址（hccn_tool -i N -link -g，-ip -g）以及它们之间的交换机端口',
    partialOneShot:
      '部分覆盖：单次运行只 ping 一轮；qprep serve 会在后续运行中验证其余设备对，qprep aggregate 把从未验证或验证已过期的设备对计为未验证',
    partialServe: '部分覆盖：qprep serve 的后续运行会验证其余设备对；在此之前 qprep aggregate 把它们计为未验证',
    rollingPartial: (p) => `本次运行的全部 ${p.pinged} 次 ping 正常；矩阵 ${p.total} 对中已验证 ${p.ok} 对（rolling，${p.rotation}）：${p.where}`,
    rollingPartialFix: (p) => `让 qprep serve 在 ${p.maxAgeS} 秒内运行 ${p.rotations} 次（rollingMaxAgeS），或使用 plan: same-index 一次验证整个矩阵`,
    rollingOk: (p) => `矩阵全部 ${p.total} 对均在 ${p.maxAgeS} 秒内得到验证（rolling，${p.rotation}：本次运行 ${p.pinged} 次 ping）`,
  },
  'hccn.spod': {
    title: 'A3 超节点标识',
    why:
      '同一超节点内的 A3 节点通过 HCCS 连接 NPU；不同超节点的节点退回 RoCE。HCCL 按 npu-smi info -t spod-info 的 Super Pod ID' +
      '（或 HCCL_LOGIC_SUPERPOD_ID）对节点分组：要共享 HCCS 的节点必须报告同一 ID，同一服务器的每个 die 必须报告相同的 ID 和 Server Index' +
      '（更换单板后 Server Index 错误会使超节点任务失败）。集群文件写明哪些节点应在同一超节点内（superPod:）。',
    reads: ['npu-smi info -t spod-info -i <card> -c <chip>（card = npu-smi 的 NPU ID）', 'HCCL_LOGIC_SUPERPOD_ID', '集群文件（superPod）'],
    fix: '修正集群文件中的 superPod，或让不同超节点的节点走 RoCE（HCCL_INTER_HCCS_DISABLE=TRUE），或用 HCCL_LOGIC_SUPERPOD_ID 分组；ID 或 Server Index 不同的 die 需要修正厂商的超节点配置。',
    what: '超节点标识',
    notA3: (p) => `超节点是 A3 的特性；本节点是 ${p.family}：其节点之间通过 RoCE 连接`,
    notA3Fix: '无需处理：hccn.peers 检查 RoCE 平面',
    cannotRead: (p) => `无法读取超节点标识：${p.problem}`,
    cannotReadFix: '原因见 npu.smi',
    unsupported: (p) => `npu-smi 报告 "${p.answer}"：没有可检查的超节点`,
    unsupportedFix: '无需处理：此设备类型没有超节点；hccn.peers 检查 RoCE 平面',
    dieUnreadable: (p) => `无法读取 ${p.total} 个 die 中 ${p.broken} 个的 Super Pod ID（${p.devices}）：${p.problem}`,
    dieUnreadableFix: (p) => `手动运行 "npu-smi info -t spod-info -i ${p.card} -c ${p.chip}"（-i 是 npu-smi 的 NPU ID，-c 是 die）`,
    differentIds: (p) => `本节点的各 die 报告了不同的 Super Pod ID（${p.groups}）`,
    differentServers: (p) => `本节点的各 die 报告了不同的 Server Index（${p.groups}）`,
    both: (p) => `${p.first}；${p.second}`,
    inconsistentFix: '请检查此服务器的超节点配置（更换过的单板会保留错误的 Server Index）；在此之前用 HCCL_INTER_HCCS_DISABLE=TRUE 让它走 RoCE',
    identity: (p) =>
      `Super Pod ID ${p.physical ?? '未知'}${p.logical !== null ? `（HCCL_LOGIC_SUPERPOD_ID=${p.logical}）` : ''}，Server Index ${p.server ?? '?'}`,
    wrongPod: (p) =>
      `本节点报告 ${p.identity}，但集群文件把 ${p.node} 放在超节点 ${p.pod} 中${p.mates !== null ? `（与 ${p.mates} 一起）` : ''}：它们之间的 HCCS 无法建链`,
    wrongPodFix: (p) =>
      `在集群文件中把 ${p.node} 的 superPod 改为 ${p.effective}；若是有意拆分超节点，则在启动环境中设置 HCCL_LOGIC_SUPERPOD_ID=${p.pod}；或在它们之间使用 RoCE（HCCL_INTER_HCCS_DISABLE=TRUE）`,
    hccsTo: (p) => `经 HCCS 连接 ${p.nodes}`,
    roceTo: (p) => `经 RoCE 连接 ${p.nodes}`,
    ok: (p) => `全部 ${p.dies} 个 die 均报告 ${p.identity}${p.asClusterFile ? '，与集群文件一致' : ''}${p.plan !== null ? `；${p.plan}` : ''}`,
  },
  'hccn.tls': {
    title: 'NPU TLS 开关一致',
    why:
      '开启 TLS 的设备无法与关闭 TLS 的设备建链：HCCL 等待 socket 后失败，报 "wait socket establish timeout"，其原因列表中写有 ' +
      '"The TLS switch is inconsistent"。每个节点的每个设备上该开关都必须相同；厂商指南建议为 0（关闭）。跨节点的取值来自集群文件：' +
      '每个节点的 facts（qprep facts 的 JSON 数组），或声明的 tls。',
    reads: ['hccn_tool -i <device> -tls -g', '集群文件（对端的 tls facts，或 tls:）'],
    fix: '在所有节点上设置同一个值，最好是 0：for i in {0..7}; do hccn_tool -i $i -tls -s enable 0; done（A3 上为 0..15）。',
    what: '各设备的 TLS 开关',
    readWhat: 'TLS 开关',
    silent: (p) => `hccn_tool -tls -g 没有输出 dev${p.devices} 的开关值`,
    silentFix: (p) => `手动运行 "hccn_tool -i ${p.device} -tls -g"；不支持 TLS 的驱动不输出可比较的内容`,
    differsHere: (p) => `本节点各设备的 TLS 开关不一致（${p.bySwitch}）：它们之间无法建链`,
    declaredDiffers: (p) => `本节点的 TLS 开关为 ${p.mine}，但集群文件为所有节点声明了 tls: ${p.declared}`,
    declaredFix: (p) => `在每个节点上设置同一个值（for i in ...; do hccn_tool -i $i -tls -s enable ${p.declared}; done），或修改集群文件中的 tls:`,
    peerHas: (p) => `${p.node} 为 ${p.values}`,
    peersDiffer: (p) => `本节点的 TLS 开关为 ${p.mine}，但 ${p.peers}：TLS 开启与关闭的设备之间无法建链`,
    peersFix: (p) => `在每个节点上把 TLS 设为 0：${p.command}（按需在 ${p.nodes} 上运行）`,
    onPeers: (p) => `，在 ${p.compared} 个带有该 facts 的对端上也是如此`,
    asDeclared: '，与集群文件的声明一致',
    notZero: (p) => `全部 ${p.devices} 个设备的 TLS 开关为 ${p.mine}${p.scope}；除非每个节点都需要 TLS，指南建议设为 0`,
    notZeroFix: (p) => `${p.command}（在每个节点上）`,
    ok: (p) => `全部 ${p.devices} 个设备的 TLS 开关为 0${p.scope}`,
  },
};

import type { net as en } from '../../en/checks/net.js';

export const net: typeof en = {
  'net.host-nic': {
    title: 'HCCL、Gloo 与 TP socket 使用的主机网卡',
    why:
      'HCCL 经主机网络完成初始化（HCCL_IF_IP、HCCL_SOCKET_IFNAME），torch 的 Gloo 与 TP socket 使用 GLOO_SOCKET_IFNAME 和 TP_SOCKET_IFNAME。' +
      '地址不在本主机上、网卡 down 或不存在、或几个变量指向不同网卡，都会导致 "Connection closed by peer"、退回 loopback，' +
      '或节点之间 HCCL root-info 建链失败。地址来自 HCCL_IF_IP，或在使用 --cluster 时来自本节点的主机地址；网卡来自这些变量或集群文件的 ifname。',
    reads: [
      'HCCL_IF_IP',
      'GLOO_SOCKET_IFNAME',
      'TP_SOCKET_IFNAME',
      'HCCL_SOCKET_IFNAME',
      '网络接口',
      '主机清单（网卡状态、速率、MTU）',
      '集群文件（host、ifname）',
    ],
    fix: '在启动脚本中导出本节点的地址和网卡：source <(qprep env --cluster FILE) 会输出 HCCL_IF_IP 和三行 *_SOCKET_IFNAME。',
    multiNodeUnset: (p) =>
      `profile ${p.profile} 的部署跨 ${p.nodes} 个节点，但 HCCL_IF_IP 和 *_SOCKET_IFNAME 变量均未设置，也没有集群文件：HCCL 和 Gloo 在节点之间使用的网卡未被检查`,
    multiNodeUnsetFix: '提供集群文件（qprep check --cluster FILE），或像启动脚本那样在运行检查的 shell 中导出这些变量：source <(qprep env --cluster FILE)',
    unset: 'HCCL_IF_IP 和 *_SOCKET_IFNAME 变量均未设置，也没有集群文件：HCCL 和 Gloo 会自行选择网卡，单节点上没有问题',
    unsetFix: '多节点启动时，在启动脚本中导出它们：source <(qprep env --cluster FILE)',
    cannotList: (p) => `无法列出网络接口：${p.problem}`,
    cannotListFix: '在能看到 /sys/class/net 和各网络接口的地方运行 qprep（主机网络命名空间：docker run --net=host）',
    clusterHostOf: (p) => `集群文件中 ${p.node} 的主机地址`,
    interfaceState: (p) => `${p.name}（${p.up ? 'UP' : `DOWN，operstate ${p.operState}`}）`,
    fileIfname: (p) => `ifname ${p.ifname}（集群文件）`,
    ipDiffersFromFile: (p) => `HCCL_IF_IP=${p.ip}，但集群文件给 ${p.node} 的主机地址是 ${p.host}`,
    notAnIp: (p) => `${p.source} "${p.address}" 不是 IP 地址`,
    notLocal: (p) => `${p.source} ${p.address} 不是本主机的地址（本主机有 ${p.has}）`,
    none: '无',
    addressOn: (p) => `${p.address}（${p.name}）`,
    addressOnDown: (p) => `${p.address} 所在的网卡为 ${p.state}`,
    selectorInvalid: (p) => `${p.label}：${p.reason}`,
    matchesNone: (p) => `${p.label} 未匹配任何网络接口（本主机有 ${p.interfaces}）`,
    namesDown: (p) => `${p.label} 指向 ${p.interfaces}`,
    onlyDown: (p) => `${p.label} 只匹配到 down 的网络接口：${p.interfaces}`,
    missesOwner: (p) => `${p.label} 未选中承载 ${p.address} 的 ${p.owner}`,
    noUsable: (p) => `${p.label} 未选中任何带 IPv4 地址且为 UP 的网络接口`,
    problems: (p) => `${p.count} 个问题：${p.list}`,
    exportFix: (p) =>
      `在启动脚本中 export HCCL_IF_IP=${p.ip} GLOO_SOCKET_IFNAME=${p.nic} TP_SOCKET_IFNAME=${p.nic} HCCL_SOCKET_IFNAME=${p.nic}（source <(qprep env${p.cluster !== null ? ` --cluster ${p.cluster}` : ''}) 会输出它们）`,
    addressIsOn: (p) => `${p.fromEnv ? 'HCCL_IF_IP' : '集群主机地址'} ${p.address} 位于 ${p.nic}（UP）${p.fromFile ? '，即集群文件的 ifname' : ''}`,
    variablesSelect: (p) => `${p.variables} 选中 ${p.interfaces}`,
    atLaunch: (p) => `启动时 export HCCL_IF_IP=${p.address} 以及 GLOO/TP/HCCL_SOCKET_IFNAME=${p.nic}（qprep env --cluster 会输出它们）`,
    parts: (p) => p.parts.join('；'),
    slowFix: '将 HCCL_IF_IP 和 GLOO/TP/HCCL_SOCKET_IFNAME 指向数据网卡（qprep facts 列出每块网卡及其速率），或在 profile 中调低 host.nic.minSpeedMbps',
  },
  'net.peer-ports': {
    title: '集群端口可经 TCP 到达对端',
    why:
      '每个节点都经主机网络连接主节点的数据并行 RPC 端口和 master 端口（以及集群文件列出的 Ray 或其他端口）。启动前这些端口还没有进程监听，这没有问题：' +
      '连接被拒绝说明主机可达、防火墙没有丢弃该端口。超时或 "no route to host" 则说明启动会卡在那里。',
    reads: ['集群文件（ports、master、主机地址）', '到对端的 TCP 连接'],
    fix: '在对端防火墙上放通该端口（firewall-cmd --add-port=PORT/tcp 或 iptables），修复节点之间的路由，或修正集群文件中的主机地址。',
    noCluster: '没有集群文件：没有需要到达的对端端口',
    noClusterFix: '在多节点部署的每个节点上运行 "qprep check --cluster FILE"',
    noPorts: (p) => `集群文件 ${p.file} 没有列出端口`,
    noPortsFix: '在 ports: 下列出对端必须能到达的端口（例如 [{port: 13389, name: dp-rpc}, {port: 6379, name: ray, on: all}]）',
    unreachableLine: (p) => `${p.port}：${p.error ?? '无应答'}`,
    unreachable: (p) => `从 ${p.node} 出发，${p.total} 个对端端口中有 ${p.bad} 个不可达：${p.list}`,
    unreachableFix: (p) => `在 ${p.node} 上尝试 "nc -vz ${p.host} ${p.port}"；在 ${p.peer} 的防火墙上放通 TCP ${p.port}，或修复节点之间的路由`,
    noAddress: (p) => `集群文件中没有 ${p.list} 的主机地址；其余 ${p.reachable} 个对端端口可达`,
    noAddressFix: '在集群文件中为每个节点写上主机地址（host:）',
    isMaster: (p) => `；本节点是主节点（${p.ports} 将在此监听）`,
    nothingToReach: (p) => `从 ${p.node} 没有需要到达的对端端口${p.master}`,
    reachable: (p) => `${p.count} 个对端端口可达（${p.listening} 个在监听，${p.refused} 个拒绝连接：主机在线，尚无进程监听）${p.master}`,
  },
  'net.ports': {
    title: 'vLLM 与 HCCL 所需端口空闲',
    why:
      'vLLM 绑定 API 端口、数据并行 RPC 端口和 KV 传输端口；HCCL 在 HCCL_IF_BASE_PORT（默认 60000）起每个设备监听一个端口。' +
      '任何一个端口被残留进程占用，都会在权重加载完成后以 "Failed to bind the IP port"（EJ0003）使启动失败。',
    reads: ['/proc/net/tcp', '/proc/net/tcp6', '/proc/<pid>/fd（占用端口的进程）', 'HCCL_IF_BASE_PORT'],
    fix: '停止占用端口的进程，或把 vLLM（--port、--data-parallel-rpc-port）或 HCCL（HCCL_IF_BASE_PORT）移到其他端口。',
    nothingToCheck: '没有要检查的端口（host.ports 为空且 host.hcclPortCount 为 0）',
    cannotRead: (p) => `无法读取监听中的 socket：${p.problem}`,
    cannotReadFix: '使 /proc/net 可读（挂载 /proc）后重新运行',
    free: (p) => `端口 ${p.ports} 均空闲`,
    busyPort: (p) => `${p.port}（${p.address}${p.pid !== null ? `，pid ${p.pid} ${p.name}` : '，看不到占用者'}）`,
    busy: (p) => `vLLM/HCCL 所需的端口中有 ${p.count} 个已被占用：${p.list}`,
    stopFix: (p) => `若 pid ${p.pid}（${p.name}）是残留进程则停止它（kill ${p.pid}），或改用其他端口（--port、--data-parallel-rpc-port、HCCL_IF_BASE_PORT）`,
    findFix: '用 "sudo ss -ltnp" 找到占用者并停止它，或改用其他端口（--port、--data-parallel-rpc-port、HCCL_IF_BASE_PORT）',
  },
  'net.proxy': {
    title: 'HTTP 代理变量',
    why:
      '设置了 http_proxy/https_proxy 时，PD 代理服务、压测工具和 Python HTTP 客户端会把发往其他节点和 localhost 的请求发给代理，' +
      '代理返回 503 或挂起（httpx 还会忽略 no_proxy 中的 CIDR 条目）。因此 vllm-ascend 的启动脚本开头都是 "unset http_proxy https_proxy ftp_proxy"。',
    reads: [
      'http_proxy',
      'https_proxy',
      'ftp_proxy',
      'all_proxy',
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'FTP_PROXY',
      'ALL_PROXY',
      'no_proxy',
      'NO_PROXY',
    ],
    fix: '在启动脚本中 unset 这些代理变量，或在 no_proxy 中列出 localhost、127.0.0.1 和每个节点的地址。',
    none: '未设置代理变量',
    set: (p) => `已设置代理变量（${p.values}）；${p.missingLocal === null ? 'no_proxy 已包含 localhost' : `no_proxy 缺少 ${p.missingLocal}`}`,
    unsetFix: (p) => `在启动脚本中 unset ${p.variables}（部署指南就是这样做的），或 export no_proxy=localhost,127.0.0.1,<每个节点的地址>`,
  },
};

import type { CheckEntries } from '../../types.js';

/** The checks net.*: the host network. One entry per check id. */
export const net = {
  'net.host-nic': {
    title: 'Host NIC for HCCL, Gloo and TP sockets',
    why:
      'HCCL bootstraps over the host network (HCCL_IF_IP, HCCL_SOCKET_IFNAME) and torch\'s Gloo and TP sockets use ' +
      'GLOO_SOCKET_IFNAME and TP_SOCKET_IFNAME. An address that is not on this host, an interface that is down or missing, ' +
      'or variables naming different interfaces give "Connection closed by peer", a fall back to loopback, or an HCCL ' +
      'root-info link failure between nodes. The address comes from HCCL_IF_IP or, with --cluster, from this node\'s host ' +
      'address; the interface from the variables or the cluster file\'s ifname.',
    reads: [
      'HCCL_IF_IP',
      'GLOO_SOCKET_IFNAME',
      'TP_SOCKET_IFNAME',
      'HCCL_SOCKET_IFNAME',
      'the network interfaces',
      'the host inventory (NIC state, speed, MTU)',
      'the cluster file (host, ifname)',
    ],
    fix: 'Export the address and interface of this node in the launch script: source <(qprep env --cluster FILE) prints HCCL_IF_IP and the three *_SOCKET_IFNAME lines.',
    multiNodeUnset: (p: { profile: string; nodes: number }) =>
      `the deployment of profile ${p.profile} spans ${p.nodes} nodes, but HCCL_IF_IP and the *_SOCKET_IFNAME variables are not set and there is no cluster file: the interface HCCL and Gloo use between nodes is not checked`,
    multiNodeUnsetFix:
      'give the cluster file (qprep check --cluster FILE), or export the variables, as the launch script does, in the shell that runs the check: source <(qprep env --cluster FILE)',
    unset: 'HCCL_IF_IP and the *_SOCKET_IFNAME variables are not set and there is no cluster file: HCCL and Gloo pick an interface themselves, fine on one node',
    unsetFix: 'for a multi-node launch, export them in the launch script: source <(qprep env --cluster FILE)',
    cannotList: (p: { problem: string }) => `cannot list the network interfaces: ${p.problem}`,
    cannotListFix: 'run qprep where /sys/class/net and the interfaces are visible (the host network namespace: docker run --net=host)',
    /** where the address came from, as the problems below name it */
    clusterHostOf: (p: { node: string | undefined }) => `the cluster file's host of ${p.node}`,
    /** "eth0 (UP)", "eth1 (DOWN, operstate down)" */
    interfaceState: (p: { name: string; up: boolean; operState: string }) => `${p.name} (${p.up ? 'UP' : `DOWN, operstate ${p.operState}`})`,
    /** the cluster file's ifname, where no variable is set */
    fileIfname: (p: { ifname: string }) => `ifname ${p.ifname} (cluster file)`,
    ipDiffersFromFile: (p: { ip: string; node: string; host: string }) => `HCCL_IF_IP=${p.ip} but the cluster file gives ${p.node} the host address ${p.host}`,
    notAnIp: (p: { source: string; address: string }) => `${p.source} "${p.address}" is not an IP address`,
    notLocal: (p: { source: string; address: string; has: string }) => `${p.source} ${p.address} is not an address of this host (it has ${p.has})`,
    /** what the host has when it has no IPv4 address but loopback */
    none: 'none',
    /** "10.0.0.1 on eth0" */
    addressOn: (p: { address: string; name: string }) => `${p.address} on ${p.name}`,
    addressOnDown: (p: { address: string; state: string }) => `${p.address} is on ${p.state}`,
    selectorInvalid: (p: { label: string; reason: string }) => `${p.label} ${p.reason}`,
    matchesNone: (p: { label: string; interfaces: string }) => `${p.label} matches no interface (this host has ${p.interfaces})`,
    namesDown: (p: { label: string; interfaces: string }) => `${p.label} names ${p.interfaces}`,
    onlyDown: (p: { label: string; interfaces: string }) => `${p.label} matches only interfaces that are down: ${p.interfaces}`,
    missesOwner: (p: { label: string; owner: string; address: string | undefined }) => `${p.label} does not select ${p.owner}, which carries ${p.address}`,
    noUsable: (p: { label: string }) => `${p.label} selects no UP interface with an IPv4 address`,
    problems: (p: { count: number; list: string }) => `${p.count} problems: ${p.list}`,
    exportFix: (p: { ip: string; nic: string; cluster: string | null }) =>
      `export HCCL_IF_IP=${p.ip} GLOO_SOCKET_IFNAME=${p.nic} TP_SOCKET_IFNAME=${p.nic} HCCL_SOCKET_IFNAME=${p.nic} in the launch script (source <(qprep env${p.cluster !== null ? ` --cluster ${p.cluster}` : ''}) prints them)`,
    addressIsOn: (p: { fromEnv: boolean; address: string; nic: string; fromFile: boolean }) =>
      `${p.fromEnv ? 'HCCL_IF_IP' : 'the cluster host address'} ${p.address} is on ${p.nic} (UP)${p.fromFile ? ', the ifname of the cluster file' : ''}`,
    variablesSelect: (p: { variables: string; interfaces: string }) => `${p.variables} select ${p.interfaces}`,
    atLaunch: (p: { address: string; nic: string }) => `at launch export HCCL_IF_IP=${p.address} and GLOO/TP/HCCL_SOCKET_IFNAME=${p.nic} (qprep env --cluster prints them)`,
    /** the parts of a pass or warning message, joined */
    parts: (p: { parts: string[] }) => p.parts.join('; '),
    slowFix:
      'point HCCL_IF_IP and GLOO/TP/HCCL_SOCKET_IFNAME at the data NIC (qprep facts lists each NIC with its speed), or lower host.nic.minSpeedMbps in the profile',
  },
  'net.peer-ports': {
    title: 'Peers reachable by TCP on the cluster ports',
    why:
      'Every node connects to the master\'s data-parallel RPC port and master port (and Ray or other ports the cluster file ' +
      'names) over the host network. Before launch nothing listens yet, and that is fine: a refused connection proves the ' +
      'host is reachable and no firewall drops the port. A timeout or "no route to host" means the launch will hang there.',
    reads: ['the cluster file (ports, master, host addresses)', 'TCP connections to the peers'],
    fix: 'Open the port on the peer\'s firewall (firewall-cmd --add-port=PORT/tcp or iptables), fix the route between the nodes, or correct the host address in the cluster file.',
    noCluster: 'no cluster file: no peer ports to reach',
    noClusterFix: 'run "qprep check --cluster FILE" on every node of a multi-node deployment',
    noPorts: (p: { file: string }) => `the cluster file ${p.file} names no ports`,
    noPortsFix: 'list the ports peers must reach under ports: (e.g. [{port: 13389, name: dp-rpc}, {port: 6379, name: ray, on: all}])',
    /** one unreachable port: "node2 10.0.0.2:13389 (dp-rpc): ETIMEDOUT" */
    unreachableLine: (p: { port: string; error: string | null }) => `${p.port}: ${p.error ?? 'no answer'}`,
    unreachable: (p: { bad: number; total: number; node: string; list: string }) => `${p.bad} of ${p.total} peer ports not reachable from ${p.node}: ${p.list}`,
    unreachableFix: (p: { node: string; host: string; port: number; peer: string }) =>
      `from ${p.node} try "nc -vz ${p.host} ${p.port}"; open TCP ${p.port} on ${p.peer}'s firewall or fix the route between the nodes`,
    noAddress: (p: { list: string; reachable: number }) => `no host address for ${p.list} in the cluster file; the other ${p.reachable} peer ports are reachable`,
    noAddressFix: 'give every node its host address (host:) in the cluster file',
    isMaster: (p: { ports: string }) => `; this node is the master (${p.ports} will listen here)`,
    nothingToReach: (p: { node: string; master: string }) => `no peer port to reach from ${p.node}${p.master}`,
    reachable: (p: { count: number; listening: number; refused: number; master: string }) =>
      `${p.count === 1 ? '1 peer port' : `${p.count} peer ports`} reachable (${p.listening} listening, ${p.refused} refused: host up, nothing listening yet)${p.master}`,
  },
  'net.ports': {
    title: 'Ports free for vLLM and HCCL',
    why:
      'vLLM binds its API port, the data-parallel RPC port and the KV-transfer ports; HCCL listens on ' +
      'HCCL_IF_BASE_PORT (default 60000) plus one port per device. A leftover process on any of them fails the launch ' +
      'with "Failed to bind the IP port" (EJ0003) after the weights are loaded.',
    reads: ['/proc/net/tcp', '/proc/net/tcp6', '/proc/<pid>/fd (owners of busy ports)', 'HCCL_IF_BASE_PORT'],
    fix: 'Stop the process that holds the port, or move vLLM (--port, --data-parallel-rpc-port) or HCCL (HCCL_IF_BASE_PORT) elsewhere.',
    nothingToCheck: 'no port to check (host.ports is empty and host.hcclPortCount is 0)',
    cannotRead: (p: { problem: string }) => `cannot read listening sockets: ${p.problem}`,
    cannotReadFix: 'make /proc/net readable (mount /proc) and re-run',
    free: (p: { ports: string }) => `ports ${p.ports} are free`,
    /** "13389 (0.0.0.0, pid 4242 python3)" */
    busyPort: (p: { port: number; address: string; pid: number | null; name: string | null }) =>
      `${p.port} (${p.address}${p.pid !== null ? `, pid ${p.pid} ${p.name}` : ', owner not visible'})`,
    busy: (p: { count: number; list: string }) => `${p.count} of the ports vLLM/HCCL need ${p.count === 1 ? 'is' : 'are'} in use: ${p.list}`,
    stopFix: (p: { pid: number; name: string }) =>
      `stop pid ${p.pid} (${p.name}) if it is a leftover (kill ${p.pid}), or choose other ports (--port, --data-parallel-rpc-port, HCCL_IF_BASE_PORT)`,
    findFix: 'find the owner with "sudo ss -ltnp" and stop it, or choose other ports (--port, --data-parallel-rpc-port, HCCL_IF_BASE_PORT)',
  },
  'net.proxy': {
    title: 'HTTP proxy variables',
    why:
      'With http_proxy/https_proxy set, the PD proxy server, the benchmarks and the Python HTTP clients send requests ' +
      'for other nodes and for localhost to the proxy, which answers 503 or hangs (httpx also ignores CIDR entries in ' +
      'no_proxy). The vllm-ascend launch scripts start with "unset http_proxy https_proxy ftp_proxy" for that reason.',
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
    fix: 'unset the proxy variables in the launch script, or list localhost, 127.0.0.1 and every node address in no_proxy.',
    none: 'no proxy variable is set',
    set: (p: { values: string; missingLocal: string | null }) =>
      `proxy variables are set (${p.values}); ${p.missingLocal === null ? 'no_proxy covers localhost' : `no_proxy lacks ${p.missingLocal}`}`,
    unsetFix: (p: { variables: string }) =>
      `unset ${p.variables} in the launch script (the deployment guides do), or export no_proxy=localhost,127.0.0.1,<every node address>`,
  },
} satisfies CheckEntries;

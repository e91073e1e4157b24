import type { CheckEntries } from '../../types.js';

/** The checks hccn.*: the NPU network (hccn_tool, hccn.conf, peers, SuperPoD). One entry per check id. */
export const hccn = {
  'hccn.conf': {
    title: '/etc/hccn.conf present and current',
    why:
      '/etc/hccn.conf persists each device\'s address (address_N, netmask_N, ...) across reboots, and Mooncake and HIXL ' +
      '(PD disaggregation) read the device IPs from it: without it in the container the service starts and returns ' +
      'garbage. In a container it must be bind-mounted from the host, not a copy baked into the image, which goes stale. ' +
      'Every device needs an address_N equal to what hccn_tool -i N -ip -g reports now.',
    reads: ['/etc/hccn.conf', '/proc/self/mountinfo (in a container)', 'hccn_tool -i <device> -ip -g'],
    fix: 'On the host set each address with hccn_tool -i N -ip -s address <ip> netmask <mask> (it writes the file); in a container add -v /etc/hccn.conf:/etc/hccn.conf to docker run.',
    /** what cannot be checked without the NPU table */
    what: '/etc/hccn.conf',
    readWhat: 'the device IP to compare with',
    notInContainer: (p: { file: string }) =>
      `${p.file} is not in this container: HCCL collectives do without it, but Mooncake and HIXL (PD disaggregation) read the device IPs from it`,
    addMount: (p: { flag: string }) => `add ${p.flag} to docker run`,
    absent: (p: { file: string }) => `${p.file} does not exist: the device IPs are not persisted and are lost at the next reboot`,
    absentFix: (p: { device: number; file: string }) =>
      `set each device's address with hccn_tool -i ${p.device} -ip -s address <ip> netmask <mask> (it writes ${p.file}), for every device`,
    cannotRead: (p: { problem: string }) => `cannot read ${p.problem}`,
    unparsableFix: (p: { file: string }) =>
      `fix the line named in ${p.file} (key_N=value per line), or re-create it with hccn_tool -i N -ip -s address <ip> netmask <mask>`,
    unreadableFix: (p: { file: string }) => `make ${p.file} readable (run qprep as root)`,
    imageCopy: (p: { file: string }) =>
      `${p.file} in this container is a copy in the image, not the host's file: it goes stale when the host's device IPs change`,
    noAddress: (p: { devices: string }) => `no address_N for ${p.devices}`,
    addressDiffers: (p: { device: number; written: string; line: number | undefined; real: string }) =>
      `address_${p.device}=${p.written} (line ${p.line}) but the device has ${p.real}`,
    addressGone: (p: { device: number; written: string }) => `address_${p.device}=${p.written} but the device has no address now`,
    netmaskDiffers: (p: { device: number; written: string; real: string }) => `netmask_${p.device}=${p.written} but the device has ${p.real}`,
    oneProblem: (p: { file: string; problem: string }) => `${p.file} ${p.problem}`,
    problems: (p: { file: string; count: number; list: string }) => `${p.file} has ${p.count} problems: ${p.list}`,
    persistFix: (p: { inContainer: boolean }) =>
      `persist the running addresses: hccn_tool -i N -ip -s address <ip> netmask <mask> rewrites address_N (or fix the file if it is the device that is wrong)${p.inContainer ? '; in a container fix the host file' : ''}`,
    setMissingFix: (p: { device: number }) => `set the missing addresses: hccn_tool -i ${p.device} -ip -s address <ip> netmask <mask>`,
    current: (p: { file: string; devices: number; inContainer: boolean }) =>
      `${p.file} has an address for all ${p.devices} devices, equal to the running ones${p.inContainer ? ', mounted from the host' : ''}`,
  },
  'hccn.gateway': {
    title: 'NPU default gateway',
    why:
      'Each NPU port routes traffic outside its own subnet through its default gateway. When the cluster\'s device IPs span ' +
      'several subnets (one per rack, one per switch plane) a port without a gateway cannot reach its peers, and HCCL fails ' +
      'with "Transport init error ... Create Dest error". A gateway outside the port\'s own subnet is never reachable. ' +
      'Without --cluster (or when all peers share the subnet) a missing gateway only warns.',
    reads: ['hccn_tool -i <device> -gateway -g', 'hccn_tool -i <device> -ip -g', 'the cluster file (peer device IPs)'],
    fix: 'hccn_tool -i N -gateway -s gateway <router of the device subnet> (persisted in /etc/hccn.conf as gateway_N).',
    what: 'the NPU gateways',
    readGateway: 'the gateway',
    readIp: 'the device IP',
    needed: (p: { count: number; devices: string; node: string; device: number; ip: string }) =>
      `${p.count === 1 ? '1 device' : `${p.count} devices`} without a gateway ${p.count === 1 ? 'has' : 'have'} peers in other subnets (${p.devices}; e.g. ${p.node} dev${p.device} ${p.ip})`,
    foreign: (p: { list: string }) => `gateway outside the device subnet on ${p.list}`,
    foreignItem: (p: { device: string; gateway: string | null; ip: string | null; prefix: number | null }) => `${p.device} (${p.gateway} for ${p.ip}/${p.prefix})`,
    /** joins the two problems above in one message */
    both: (p: { needed: string; foreign: string }) => `${p.needed}; ${p.foreign}`,
    setFix: (p: { device: number; ip: string | null; prefix: number | null }) =>
      `hccn_tool -i ${p.device} -gateway -s gateway <router of ${p.ip ?? 'the device'}/${p.prefix ?? '?'}>   (and likewise for the other devices named)`,
    missing: (p: { missing: number; total: number; devices: string }) =>
      `${p.missing} of ${p.total} devices have no default gateway (${p.devices}); fine while every peer shares their subnet`,
    missingFix: (p: { device: number }) => `hccn_tool -i ${p.device} -gateway -s gateway <router of the device subnet>`,
    ok: (p: { gateways: string }) => `every device has a gateway in its subnet (${p.gateways})`,
  },
  'hccn.ip': {
    title: 'NPU device IPs',
    why:
      'HCCL links NPUs across nodes by their device IPs (A3 inside a super pod: by their vNIC IPs). A device without an ' +
      'address, two devices with one address, mixed netmasks, or an address inside the vNIC range hccn_tool reserves ' +
      '(192.168.2.0/24 on A2; 192.168.0.0/21, or 192.0.0.0/8 in a super pod, on A3) fails transport creation ("Transport ' +
      'init error ... Create Dest error"). With --cluster, the addresses the file gives for this node must be the real ' +
      'ones: peers ping and connect to them.',
    reads: ['hccn_tool -i <device> -ip -g', 'hccn_tool -i <device> -vnic -g (A3)', 'npu-smi info -t spod-info (A3)', 'the cluster file'],
    fix: 'hccn_tool -i N -ip -s address <ip> netmask <mask> for each device (persisted in /etc/hccn.conf), or correct the cluster file.',
    what: 'the device IPs',
    readIp: 'the device IP',
    readVnic: 'the vNIC',
    /** "198.18.0.1 on dev0 and dev1" */
    sharedBy: (p: { address: string; devices: string[] }) => `${p.address} on ${p.devices.join(' and ')}`,
    noIp: (p: { devices: string }) => `no IP on ${p.devices}`,
    duplicate: (p: { duplicate: string }) => `duplicate IP ${p.duplicate}`,
    mixedNetmasks: (p: { masks: string }) => `mixed netmasks ${p.masks}`,
    notContiguous: (p: { mask: string }) => `netmask ${p.mask} is not a contiguous mask`,
    inReserved: (p: { list: string; range: string }) => `${p.list} inside the reserved ${p.range}`,
    noVnic: (p: { devices: string }) => `no vNIC IP on ${p.devices} (A3 HCCS pings and links use it)`,
    duplicateVnic: (p: { duplicate: string }) => `duplicate vNIC IP ${p.duplicate}`,
    fileDiffers: (p: { node: string; device: string; listed: string; real: string }) => `the cluster file gives ${p.node} ${p.device} ${p.listed}, the device has ${p.real}`,
    fileVnicDiffers: (p: { node: string; device: string; listed: string; real: string }) =>
      `the cluster file gives ${p.node} ${p.device} vNIC ${p.listed}, the device has ${p.real}`,
    peerOwns: (p: { device: string; address: string; owner: string }) => `${p.device} ${p.address} is also ${p.owner}'s address in the cluster file`,
    ok: (p: { count: number; masks: string | null; vnics: number | null; asClusterFile: boolean }) =>
      `${p.count} device IPs set and unique (netmask ${p.masks ?? 'none'})${p.vnics !== null ? `, ${p.vnics} vNIC IPs` : ''}${p.asClusterFile ? ', as the cluster file says' : ''}`,
    oneProblem: (p: { problem: string }) => p.problem,
    problems: (p: { count: number; list: string }) => `${p.count} address problems: ${p.list}`,
    setFix: (p: { device: number; range: string }) =>
      `hccn_tool -i ${p.device} -ip -s address <ip> netmask <mask> (outside ${p.range}), likewise for the others named; then update the cluster file`,
    agreeFix:
      'make the cluster file and the devices agree: regenerate it from "qprep facts" on every node, or set the addresses with hccn_tool -i N -ip -s address <ip> netmask <mask>',
    uniqueFix: 'give every device its own address in one subnet: hccn_tool -i N -ip -s address <ip> netmask <mask>',
  },
  'hccn.link': {
    title: 'NPU network ports UP',
    why:
      'Each A2/A3 NPU has its own RoCE port; HCCL traffic between nodes leaves through it. A port that is DOWN fails the ' +
      'launch with "EJ0002 The network port is down" (plog: "rdma init fail") once the weights are loaded. The vllm-ascend ' +
      'guides ask for "link status: UP" on every device before a multi-node launch.',
    reads: ['hccn_tool -i <device> -link -g'],
    fix: 'Reseat or replace the optical module or cable of the DOWN port, check the switch port, then hccn_tool -i N -link -g again.',
    what: 'the NPU port links',
    readWhat: 'the link status',
    allUp: (p: { count: number }) => `all ${p.count} NPU ports are UP`,
    notUp: (p: { down: number; total: number; list: string }) => `${p.down} of ${p.total} NPU ports not UP: ${p.list}`,
    downFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -cfg recovery   # restore the port's link\n` +
      `if it stays DOWN, check the optics and cable of device ${p.device} (hccn_tool -i ${p.device} -optical -g; a growing "link down count" in hccn_tool -i ${p.device} -link_stat -g means a flapping link) and its switch port, then re-run`,
  },
  'hccn.link-stability': {
    title: 'NPU port link history: no flap in 24 h',
    why:
      'A port that went down an hour ago and came back is up now, and hccn.link says UP; it is the port that takes a long ' +
      'job or a large deployment down tomorrow (ERROR CQE, "The network port is down"). hccn_tool -link_stat -g keeps ' +
      "each port's last 10 link changes: a newest record LINK DOWN is a port down now, a down transition in the 24 h " +
      'before the read is a flap (a dirty connector, a failing module or cable), a DOWN/UP pair seconds after the ' +
      'first LINK UP is the port renegotiating as the driver brings it up. Huawei\'s device plugin takes an NPU out of ' +
      'service after 5 link-down events in 24 h (fault code 81078603); qprep serve counts them across runs the same way.',
    reads: ['hccn_tool -i <device> -link_stat -g', 'knowledge/hccn-link-health.json (the frequency rule)'],
    fix: 'Bring a down port up with hccn_tool -i N -cfg recovery; for a flapping one clean the fiber connectors, reseat the optical module, replace the module or cable if it flaps again, and check the switch port.',
    what: 'the link history of the NPU ports',
    readWhat: 'the link history',
    noHistory: 'the answer holds no [devid N] line of link history',
    noHistoryFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -link_stat -g   # see what it prints: a driver that keeps no link history cannot be judged; update the driver, or run at --depth standard, which does not read it`,
    downItem: (p: { device: string; since: string }) => `${p.device} LINK DOWN since ${p.since}`,
    escalatedItem: (p: { device: string; count: number; until: string }) => `${p.device} went down ${p.count} times within 24 h (out of service until ${p.until} by the frequency rule)`,
    flapItem: (p: { device: string; count: number; last: string | null }) =>
      `${p.device} went down ${p.count === 1 ? 'once' : `${p.count} times`} within 24 h${p.last ? `, last at ${p.last}` : ''}`,
    burstLine: (p: { devices: string }) => `${p.devices} went down only while brought up: a note, not a flap`,
    downNow: (p: { count: number; total: number; list: string }) =>
      `${p.count} of ${p.total} NPU ports are down now by their link history, whatever their counters say: ${p.list}`,
    downFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -cfg recovery   # bring the port up again\n` +
      `or: hccn_tool -i ${p.device} -optical -g   # if it stays down: the module's powers and flags (hccn.optics judges them); reseat or replace the module or cable, check the switch port`,
    escalated: (p: { count: number; total: number; times: number; list: string }) =>
      `${p.count} of ${p.total} NPU ports went down ${p.times} times or more within 24 h: ${p.list}`,
    escalatedFix: (p: { device: number; until: string }) =>
      `leave NPU device ${p.device} out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags until its optical module and cable are replaced (the device plugin's rule holds it out until ${p.until})\n` +
      `or: hccn_tool -i ${p.device} -optical -g   # find the weak lane, then clean the connectors and replace the module or cable`,
    flapped: (p: { count: number; total: number; list: string }) => `${p.count} of ${p.total} NPU ports went down in the 24 h before the read, after bring-up: ${p.list}`,
    flapFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -optical -g   # the module's Rx/Tx power per lane and its LOS flags: a weak lane points at the connector or the module\n` +
      `or: clean the fiber connectors of device ${p.device} and reseat its module; watch it with hccn_tool -i ${p.device} -link_stat -g (a new LINK DOWN record means it still flaps)`,
    stable: (p: { total: number; burst: string | null }) =>
      `all ${p.total} NPU ports up with no down transition in the 24 h before the read${p.burst ? `; ${p.burst} went down once while brought up only (a note)` : ''}`,
  },
  'hccn.optics': {
    title: 'NPU port optical modules inside their thresholds',
    why:
      'A port can be UP on a module whose receiving lane gets a third of the light of its peers: it runs with errors that ' +
      'FEC hides until it flaps. hccn_tool -optical -g prints the module\'s own alarm thresholds beside its readings: ' +
      'a temperature or a lane\'s Tx or Rx power outside them is a failure. Inside them, a lane under the warning level ' +
      "of Huawei's fault-diagnosis toolkit (Rx under 0.6 mW), lanes more than 3 dB apart, a media SNR under 18 dB or a " +
      'loss-of-signal flag are warnings. Fields that contradict each other (a module "not present" that reports its ' +
      'powers; a lane flagged as without signal that receives a healthy power) are said as such.',
    reads: ['hccn_tool -i <device> -optical -g', 'knowledge/hccn-link-health.json (the warning levels)'],
    fix: 'Clean the fiber connectors and reseat the module; replace a module (or cable) whose lane stays outside its thresholds, and check the switch-side module of the same link.',
    what: 'the optical modules of the NPU ports',
    readWhat: 'the optical module',
    absent: 'no optical module in the cage',
    unreachable: "the module's management link does not answer (Control link unreachable)",
    initializing: 'the module is still initializing: read again',
    temperature: (p: { value: number; limit: number; high: boolean }) => `temperature ${p.value} C ${p.high ? 'above' : 'below'} the module's ${p.high ? 'high' : 'low'} threshold ${p.limit} C`,
    power: (p: { rx: boolean; lane: number; value: number; limit: number; high: boolean }) =>
      `${p.rx ? 'Rx' : 'Tx'} lane ${p.lane} ${p.value} mW ${p.high ? 'above' : 'below'} the module's ${p.high ? 'high' : 'low'} threshold ${p.limit} mW`,
    weak: (p: { lane: number; value: number; limit: number }) => `Rx lane ${p.lane} ${p.value} mW, under the ${p.limit} mW warning level`,
    spread: (p: { rx: boolean; value: number; limit: number; strongest: number; weakest: number }) =>
      `${p.rx ? 'Rx' : 'Tx'} lanes ${p.value} dB apart (lane ${p.strongest} to lane ${p.weakest}; at most ${p.limit} dB)`,
    snr: (p: { lane: number; value: number; limit: number }) => `media SNR of lane ${p.lane} ${p.value} dB, under ${p.limit} dB`,
    flagSet: (p: { flag: string; value: string }) => `${p.flag} ${p.value}`,
    presentContradiction: 'the module says "not present" yet reports its temperature and powers: the fields contradict each other',
    flagContradiction: (p: { flag: string; value: string; lanes: string }) =>
      `${p.flag} ${p.value} says lane ${p.lanes} lost the signal, yet its power is healthy: the fields contradict each other`,
    port: (p: { device: string; module: string | null; findings: string }) => `${p.device}${p.module ? ` (${p.module})` : ''}: ${p.findings}`,
    failing: (p: { count: number; total: number; list: string }) => `${p.count} of ${p.total} NPU ports have an optical module outside its own thresholds, or none: ${p.list}`,
    failFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -optical -g   # read it again: the lanes and thresholds named\n` +
      `or: clean the fiber connectors of device ${p.device} and reseat its module; replace the module (or cable) if a lane stays outside its thresholds, and check the switch-side module of the link`,
    warning: (p: { count: number; total: number; list: string }) => `${p.count} of ${p.total} NPU ports' optical modules need watching: ${p.list}`,
    warnFix: (p: { device: number }) =>
      `clean the fiber connectors of device ${p.device} at the next maintenance, then hccn_tool -i ${p.device} -optical -g   # the weak lane should come up to its peers; if not, replace the module\n` +
      `or: qprep serve --depth deep   # its /metrics gives qprep_optical_rx_power_milliwatts per lane to watch the trend`,
    contradictionFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -optical -g   # read again: latched flags clear once read\n` +
      `or: reseat the module of device ${p.device} if its fields still contradict each other`,
    unsupported: (p: { total: number }) => `hccn_tool -optical -g is not supported on the ${p.total} NPU ports of this board`,
    unsupportedFix: "nothing to do here: read the modules from the board's management (BMC) instead",
    healthy: (p: { total: number; unread: string | null }) =>
      `the optical modules of all ${p.total} NPU ports are inside their own thresholds, no lane under the warning level or far from its peers${p.unread ? `; ${p.unread} report no optical reading (a copper cable, or no module data)` : ''}`,
  },
  'hccn.fec': {
    title: 'NPU ports use RS-FEC',
    why:
      'The 100G and 200G Ethernet the NPU ports run need Reed-Solomon forward error correction: a port set to "no FEC ' +
      'mode" links up with a switch port configured the same way, and its bit errors then reach RoCE as lost packets, ' +
      'retransmissions and HCCL timeouts. Huawei\'s fault-diagnosis knowledge flags "no FEC mode" as abnormal and sets ' +
      'RS with hccn_tool -i N -fec -s encoding rs (hccn_tool writes it to /etc/hccn.conf). On A3 the tool cannot query ' +
      'or set FEC: the check does not apply there.',
    reads: ['hccn_tool -i <device> -fec -g', 'hccn_tool -i <device> -speed -g (a port in "no FEC mode")'],
    fix: 'hccn_tool -i N -fec -s encoding rs for each port in "no FEC mode" (persisted as encoding_N in /etc/hccn.conf), with RS-FEC on the switch port too.',
    what: 'the FEC mode of the NPU ports',
    readWhat: 'the FEC mode',
    a3: (p: { total: number }) => `A3: hccn_tool cannot query or set the FEC mode of the ${p.total} NPU ports ("This device does not support switching fec mode.")`,
    unsupported: (p: { total: number }) => `hccn_tool answered "does not support switching fec mode" for all ${p.total} NPU ports`,
    unsupportedFix: 'nothing to do here: the FEC mode of these ports is the switch side\'s and the driver\'s to set',
    noFecItem: (p: { device: string; speedGbps: number | null }) => `${p.device} (${p.speedGbps === null ? 'speed unknown' : `${p.speedGbps} Gb/s`})`,
    noFec: (p: { count: number; total: number; list: string }) => `${p.count} of ${p.total} NPU ports run without FEC at a speed that needs RS-FEC: ${p.list}`,
    noFecUnknownSpeed: (p: { count: number; total: number; list: string }) =>
      `${p.count} of ${p.total} NPU ports run without FEC: ${p.list}; their speed does not say whether they need RS-FEC`,
    rsFix: (p: { command: string }) => `${p.command}   # RS-FEC, persisted in /etc/hccn.conf; set the switch port to RS-FEC too`,
    rs: (p: { total: number; auto: string | null; unqueried: string | null }) =>
      `all ${p.total} NPU ports use RS-FEC${p.auto ? ` (${p.auto} negotiate it: auto FEC mode)` : ''}${p.unqueried ? `; ${p.unqueried} cannot be queried` : ''}`,
  },
  'hccn.counters': {
    title: 'NPU port error counters do not grow',
    why:
      'Bad packets, FCS errors, RoCE errors, QP state errors and retransmissions that grow while a port carries ' +
      'traffic are a link that is failing under load, long before it goes down; the HCCL guide reads a growing ' +
      'roce_new_pkt_rty_num as packet loss. The counters count since they were last cleared, so one read says little: ' +
      'the check reads each port twice, 3 s apart, and judges the growth (qprep serve also between runs, and fails a ' +
      'port whose errors grew in 3 runs within 24 h). A port that carried no packet at all is "not exercised": its ' +
      'zero errors prove nothing.',
    reads: ['hccn_tool -i <device> -stat -g (twice, 3 s apart)'],
    fix: 'Find the growing counter: link-level errors (bad, FCS) point at the optics and cable (hccn.optics), RoCE and retransmission counts at the link or the switch (PFC, ECN, congestion); clean or replace the module or cable, check the switch port.',
    what: 'the error counters of the NPU ports',
    readWhat: 'the packet counters',
    grewItem: (p: { device: string; growth: string; seconds: string }) => `${p.device} ${p.growth} in ${p.seconds} s`,
    grewSinceItem: (p: { device: string; growth: string; since: string }) => `${p.device} ${p.growth} since the run at ${p.since}`,
    grew: (p: { count: number; total: number; list: string }) => `the error counters of ${p.count} of ${p.total} NPU ports grew: ${p.list}`,
    grewFix: (p: { device: number }) =>
      `hccn_tool -i ${p.device} -stat -g   # read again: which counter grows, and by how much\n` +
      `or: hccn_tool -i ${p.device} -optical -g   # bad and FCS errors: the optics and cable; retransmissions: the switch port (PFC, ECN)`,
    persistent: (p: { count: number; total: number; runs: number; list: string }) =>
      `the error counters of ${p.count} of ${p.total} NPU ports grew in ${p.runs} runs or more within 24 h: ${p.list}`,
    persistentFix: (p: { device: number }) =>
      `replace the optical module or cable of device ${p.device} (hccn_tool -i ${p.device} -optical -g names the weak lane) and check its switch port`,
    notExercised: (p: { total: number }) => `not exercised: none of the ${p.total} NPU ports has carried a packet since its counters were cleared, so their errors say nothing`,
    notExercisedFix: 'read again once traffic runs (qprep serve --depth deep judges the growth between runs), or run an HCCL test over the ports first',
    steady: (p: { total: number; seconds: string; never: string | null; idle: string | null; unknown: string | null; counted: string | null; notReadAgain: number }) =>
      `no error counter of the ${p.total} NPU ports grew in ${p.seconds} s` +
      `${p.never ? `; not exercised: ${p.never} (no packet since the counters were cleared)` : ''}` +
      `${p.idle ? `; ${p.idle} carried no traffic during the check` : ''}` +
      `${p.unknown ? `; ${p.unknown}: this hccn_tool prints no traffic counter` : ''}` +
      `${p.counted ? `; counted before: ${p.counted} errors` : ''}` +
      `${p.notReadAgain > 0 ? `; ${p.notReadAgain} not read again in time` : ''}`,
  },
  'hccn.lldp': {
    title: 'NPU ports see their switch (LLDP)',
    why:
      'hccn_tool -lldp -g shows the switch port each NPU port is cabled to (Ifname). An empty answer means no LLDP ' +
      'neighbour: the cable is out, or LLDP is off on the switch. It is the quickest way to find a miscabled port, but a ' +
      'switch without LLDP works fine, so this only warns.',
    reads: ['hccn_tool -i <device> -lldp -g'],
    fix: 'Check the cable of the named ports; if the switch has LLDP disabled, enable it (or waive this check in the profile).',
    what: 'the LLDP neighbours',
    readWhat: 'the LLDP neighbour',
    ok: (p: { ports: string }) => `every NPU port sees a switch port (${p.ports})`,
    none: (p: { none: number; total: number; devices: string }) => `${p.none} of ${p.total} NPU ports see no switch by LLDP: ${p.devices}`,
    noneFix: (p: { device: number }) =>
      `check the cable of device ${p.device} and that LLDP is enabled on its switch port, then: hccn_tool -i ${p.device} -lldp -g | grep Ifname`,
  },
  'hccn.net-health': {
    title: 'NPU network health',
    why:
      'The driver probes each NPU port towards its netdetect address and reports "net health status: Success" when the ' +
      'path answers; Fault, Receive timeout, Unreachable and the like mean the RoCE plane of that device is broken. The ' +
      'vllm-ascend guides require Success. Init means the probe never ran (no netdetect address): it says nothing about ' +
      'the data plane, so it is a warning, not a failure (Ascend\'s own exporter counts it as healthy).',
    reads: ['hccn_tool -i <device> -net_health -g'],
    fix: 'For Fault or timeouts check the link, the device IP and the netdetect address (it must answer ping); for Init set a netdetect address: hccn_tool -i N -netdetect -s address <gateway>.',
    what: 'the NPU network health',
    readWhat: 'the network health',
    unhealthy: (p: { bad: number; total: number; list: string }) => `${p.bad} of ${p.total} NPU ports not healthy: ${p.list}`,
    unhealthyFix: (p: { device: number }) =>
      `check device ${p.device}: its link (hccn_tool -i ${p.device} -link -g), its address (hccn_tool -i ${p.device} -ip -g) and that its netdetect address answers (hccn_tool -i ${p.device} -netdetect -g, then ping it from the switch side)`,
    init: (p: { init: number; total: number; devices: string }) =>
      `${p.init} of ${p.total} NPU ports report Init (health probing not running: no netdetect address?): ${p.devices}`,
    initFix: (p: { device: number }) => `set a netdetect address the port can reach, usually its gateway: hccn_tool -i ${p.device} -netdetect -s address <gateway of device ${p.device}>`,
    ok: (p: { count: number }) => `all ${p.count} NPU ports report Success`,
  },
  'hccn.netdetect': {
    title: 'NPU netdetect address',
    why:
      'The driver checks each NPU port\'s health by probing its netdetect address; without one, hccn_tool -net_health -g ' +
      'stays at Init and a broken RoCE path goes unnoticed until HCCL times out. The vllm-ascend guides list it among the ' +
      'per-node checks. HCCL does not need it to run, hence recommended.',
    reads: ['hccn_tool -i <device> -netdetect -g', 'hccn_tool -i <device> -gateway -g'],
    fix: 'Set an address every port can reach, usually its gateway: hccn_tool -i N -netdetect -s address <gateway> (persisted in /etc/hccn.conf as netdetect_N).',
    what: 'the netdetect addresses',
    readWhat: 'the netdetect address',
    ok: (p: { addresses: string }) => `every device has a netdetect address (${p.addresses})`,
    unset: (p: { unset: number; total: number; devices: string }) =>
      `${p.unset} of ${p.total} devices have no netdetect address (their net health stays Init): ${p.devices}`,
    /** the placeholder when the device has no gateway to suggest */
    gatewayPlaceholder: '<gateway of the device>',
    setFix: (p: { device: number; address: string; devices: string }) => `hccn_tool -i ${p.device} -netdetect -s address ${p.address}   (and likewise for ${p.devices})`,
  },
  'hccn.peers': {
    title: 'NPU-to-NPU reachability across nodes',
    why:
      'HCCL connects the NPUs of different nodes over their own network: device i to device i of every peer for TP/DP ' +
      'collectives, any pair for cross-node expert parallel and PD KV transfer. One unreachable pair makes the whole launch ' +
      'wait and fail with "wait socket establish timeout" after the weights are loaded. This runs the cluster file\'s ping ' +
      'plan with hccn_tool from this node (RoCE -ping; -hccs_ping to the vNIC of A3 peers in the same super pod), one call ' +
      'at a time, and names every failing pair. Pairs inside a node are not pinged: they talk over HCCS, and the two dies ' +
      'of an A3 card cannot RoCE-ping each other by design. A device whose link is DOWN is not pinged.',
    reads: ['the cluster file (plan, peers, device IPs)', 'hccn_tool -i <device> -link -g', 'hccn_tool -i <device> -ping -g address <peer IP>', 'hccn_tool -i <device> -hccs_ping -g address <peer vNIC IP> (A3)'],
    fix: 'For each failing pair check both ends: link (hccn_tool -i N -link -g), address (-ip -g), the switch ports and VLAN between them, and that the cluster file has the peer\'s real device IPs (regenerate it from qprep facts).',
    what: 'the peer pings',
    noCluster: 'no cluster file: there are no peers to ping',
    noClusterFix:
      'run "qprep check --cluster FILE" on every node of a multi-node deployment (a YAML node list, or the JSON array of every node\'s qprep facts)',
    oneNode: (p: { file: string }) => `the cluster ${p.file} has one node: no peer to ping`,
    oneNodeFix: 'nothing to do for a single node',
    /** why a ping was not run, for the person reading; the evidence keeps the English reason */
    budgetSpent: (p: { budget: string }) => `not tried: the ping budget of ${p.budget} (profile hccn.peersBudget) was spent`,
    linkDown: (p: { device: string }) => `local ${p.device} link is DOWN (hccn.link)`,
    vnicDown: (p: { device: string }) => `local ${p.device} vNIC link is DOWN`,
    ownsNone: (p: { node: string; pairs: number; peers: string; peerCount: number; plan: string }) =>
      `${p.node} owns none of its ${p.pairs === 1 ? '1 pair' : `${p.pairs} pairs`}: ${p.peers} ${p.peerCount === 1 ? 'pings' : 'ping'} them (${p.plan}, pairs once)`,
    /** "node2 8": how many of this node's pairs a peer pings */
    peerOwnedItem: (p: { node: string; count: number }) => `${p.node} ${p.count}`,
    peerOwned: (p: { list: string }) => `pinged by the peers (pairs: once; qprep aggregate joins them): ${p.list}`,
    peersListNoDevice: 'the peers list no device',
    nonePlanned: (p: { node: string; why: string }) => `no ping could be planned from ${p.node}: ${p.why}`,
    nonePlannedFix: 'list every node\'s devices with their ip (and vnicIp on A3) in the cluster file, or build it from the qprep facts of every node',
    notRun: (p: { notRun: number; total: number; reasons: string }) => `${p.notRun} of ${p.total} pings not run (${p.reasons})`,
    untried: (p: { untried: number; total: number; budget: string }) =>
      `${p.untried} of ${p.total} pings not tried: the ping budget of ${p.budget} (profile hccn.peersBudget) was spent`,
    /** joins the parts of a failure */
    parts: (p: { parts: string[] }) => p.parts.join('; '),
    budgetFix: (p: { untried: number }) =>
      `raise hccn.peersBudget in the profile (the ${p.untried === 1 ? '1 pair' : `${p.untried} pairs`} not tried are listed under the check), or ping fewer pairs per node (plan: ring with ringK, or same-index, in the cluster file)`,
    failFix: (p: { ping: string; localDevice: number; localNode: string; peerDevice: number; peerNode: string; command: string; address: string }) =>
      `start with ${p.ping}: hccn_tool -i ${p.localDevice} -link -g and -ip -g on ${p.localNode}, the same for device ${p.peerDevice} on ${p.peerNode}, ` +
      `then the switch ports between them; retry: hccn_tool -i ${p.localDevice} ${p.command} -g address ${p.address}`,
    notAssessed: (p: { errors: number; total: number; list: string }) => `${p.errors} of ${p.total} pings could not be assessed: ${p.list}`,
    notAssessedFix: 'run the named hccn_tool command by hand; a busy tool means another program is using it (pause it), a timeout a wedged driver',
    noAddress: (p: { judged: number; unplanned: number; list: string }) =>
      `all ${p.judged} pings ok, but ${p.unplanned === 1 ? '1 planned pair' : `${p.unplanned} planned pairs`} ${p.unplanned === 1 ? 'has' : 'have'} no address to ping: ${p.list}`,
    noAddressFix: 'give every device of every node its ip (and vnicIp on A3) in the cluster file, or build it from every node\'s qprep facts',
    pairsOnce: (p: { count: number }) => `, pairs once: ${p.count} more pinged by the peers`,
    ok: (p: { count: number; peers: string; plan: string; methods: string; once: string }) => `all ${p.count} pings to ${p.peers} ok (${p.plan}, ${p.methods}${p.once})`,
    /** "RoCE and HCCS" */
    methods: (p: { methods: string[] }) => p.methods.join(' and '),
    // plan: rolling, one rotation of the matrix a run
    rotation: (p: { rotation: number; rotations: number }) => `rotation ${p.rotation} of ${p.rotations}`,
    coverage: (p: { ok: number; total: number; maxAgeS: number; never: number; stale: number; oldestAgeS: number | null }) =>
      `matrix coverage: ${p.ok} of ${p.total === 1 ? '1 pair' : `${p.total} pairs`} proven within ${p.maxAgeS} s` +
      (p.never > 0 ? `, ${p.never} never proven` : '') +
      (p.stale > 0 ? `, ${p.stale} older than that` : '') +
      (p.oldestAgeS !== null ? `; oldest proof ${p.oldestAgeS} s` : ''),
    rollingFailed: (p: { failed: number; rotation: string }) =>
      `${p.failed === 1 ? '1 pair' : `${p.failed} pairs`} of the matrix failed at ${p.failed === 1 ? 'its' : 'their'} last ping (rolling, ${p.rotation})`,
    rollingFailedFix:
      'the failing pairs are in the evidence (rolling.proofs, state failed): check both ends\' link and address (hccn_tool -i N -link -g, -ip -g) and the switch ports between them',
    partialOneShot:
      'partial coverage: a one-shot run pings one rotation; qprep serve proves the rest over the next runs, and qprep aggregate counts a pair never proven or proven too long ago as not verified',
    partialServe: 'partial coverage: the next runs of qprep serve prove the rest; until then qprep aggregate counts those pairs as not verified',
    rollingPartial: (p: { pinged: number; ok: number; total: number; rotation: string; where: string }) =>
      `all ${p.pinged} pings of this run ok; ${p.ok} of ${p.total === 1 ? '1 pair' : `${p.total} pairs`} of the matrix proven (rolling, ${p.rotation}): ${p.where}`,
    rollingPartialFix: (p: { rotations: number; maxAgeS: number }) =>
      `let qprep serve run ${p.rotations} times within ${p.maxAgeS} s (rollingMaxAgeS), or use plan: same-index for a one-shot proof of the whole matrix`,
    rollingOk: (p: { total: number; maxAgeS: number; rotation: string; pinged: number }) =>
      `all ${p.total === 1 ? '1 pair' : `${p.total} pairs`} of the matrix proven within ${p.maxAgeS} s (rolling, ${p.rotation}: ${p.pinged} pings this run)`,
  },
  'hccn.spod': {
    title: 'A3 super pod identity',
    why:
      'A3 nodes in one super pod link their NPUs over HCCS; nodes in different super pods fall back to RoCE. HCCL groups ' +
      'nodes by the Super Pod ID of npu-smi info -t spod-info (or HCCL_LOGIC_SUPERPOD_ID): nodes meant to share HCCS must ' +
      'report the same id, and every die of one server the same id and Server Index (a wrong Server Index after a board ' +
      'replacement breaks super pod runs). The cluster file says which nodes are meant to share a pod (superPod:).',
    reads: ['npu-smi info -t spod-info -i <card> -c <chip> (card = npu-smi NPU id)', 'HCCL_LOGIC_SUPERPOD_ID', 'the cluster file (superPod)'],
    fix: 'Correct superPod in the cluster file, or run the nodes of different super pods over RoCE (HCCL_INTER_HCCS_DISABLE=TRUE) or group them with HCCL_LOGIC_SUPERPOD_ID; a die with a different id or Server Index needs the vendor\'s super pod configuration fixed.',
    what: 'the super pod identity',
    notA3: (p: { family: string }) => `super pods are an A3 feature; this node is ${p.family}: its nodes link over RoCE`,
    notA3Fix: 'nothing to do: hccn.peers checks the RoCE plane',
    cannotRead: (p: { problem: string }) => `cannot read the super pod identity: ${p.problem}`,
    cannotReadFix: 'see npu.smi for the cause',
    unsupported: (p: { answer: string }) => `npu-smi says "${p.answer}": no super pod to check`,
    unsupportedFix: 'nothing to do: this device type has no super pod; hccn.peers checks the RoCE plane',
    dieUnreadable: (p: { broken: number; total: number; devices: string; problem: string }) =>
      `cannot read the super pod id of ${p.broken} of ${p.total} dies (${p.devices}): ${p.problem}`,
    dieUnreadableFix: (p: { card: number; chip: number }) =>
      `run "npu-smi info -t spod-info -i ${p.card} -c ${p.chip}" by hand (-i is the npu-smi NPU id, -c the die)`,
    differentIds: (p: { groups: string }) => `the dies of this node report different Super Pod IDs (${p.groups})`,
    differentServers: (p: { groups: string }) => `the dies of this node report different Server Index values (${p.groups})`,
    /** joins the two problems above */
    both: (p: { first: string; second: string }) => `${p.first}; ${p.second}`,
    inconsistentFix:
      'have the super pod configuration of this server checked (a replaced board keeps a wrong Server Index); until then run it over RoCE with HCCL_INTER_HCCS_DISABLE=TRUE',
    identity: (p: { physical: number | null; logical: number | null; server: number | null | undefined }) =>
      `Super Pod ID ${p.physical ?? 'unknown'}${p.logical !== null ? ` (HCCL_LOGIC_SUPERPOD_ID=${p.logical})` : ''}, Server Index ${p.server ?? '?'}`,
    wrongPod: (p: { identity: string; node: string; pod: number; mates: string | null }) =>
      `this node reports ${p.identity} but the cluster file puts ${p.node} in super pod ${p.pod}${p.mates !== null ? ` with ${p.mates}` : ''}: HCCS between them will not link`,
    wrongPodFix: (p: { node: string; effective: number; pod: number }) =>
      `correct superPod of ${p.node} in the cluster file (${p.effective}), or set HCCL_LOGIC_SUPERPOD_ID=${p.pod} in the launch environment if the pod is split on purpose, or use RoCE between them (HCCL_INTER_HCCS_DISABLE=TRUE)`,
    hccsTo: (p: { nodes: string }) => `HCCS to ${p.nodes}`,
    roceTo: (p: { nodes: string }) => `RoCE to ${p.nodes}`,
    ok: (p: { dies: number; identity: string; asClusterFile: boolean; plan: string | null }) =>
      `all ${p.dies} dies report ${p.identity}${p.asClusterFile ? ', as the cluster file says' : ''}${p.plan !== null ? `; ${p.plan}` : ''}`,
  },
  'hccn.tls': {
    title: 'NPU TLS switch consistent',
    why:
      'Devices with TLS enabled cannot establish links with devices with TLS disabled: HCCL waits for the socket and fails ' +
      'with "wait socket establish timeout", its cause list naming "The TLS switch is inconsistent". The switch must be ' +
      'the same on every device of every node; the vendor guides recommend 0 (off). Across nodes the values come from ' +
      'the cluster file: the facts of every node (a JSON array of qprep facts), or a declared tls.',
    reads: ['hccn_tool -i <device> -tls -g', 'the cluster file (peers\' tls facts, or tls:)'],
    fix: 'Set one value everywhere, preferably 0: for i in {0..7}; do hccn_tool -i $i -tls -s enable 0; done (0..15 on A3), on every node.',
    what: 'the TLS switch',
    readWhat: 'the TLS switch',
    silent: (p: { devices: string }) => `hccn_tool -tls -g printed no switch for dev${p.devices}`,
    silentFix: (p: { device: number }) => `run "hccn_tool -i ${p.device} -tls -g" by hand; a driver without TLS support prints nothing to compare`,
    differsHere: (p: { bySwitch: string }) => `the TLS switch differs between the devices of this node (${p.bySwitch}): they cannot link with each other`,
    declaredDiffers: (p: { mine: number; declared: number }) => `the TLS switch is ${p.mine} on this node but the cluster file declares tls: ${p.declared} for every node`,
    declaredFix: (p: { declared: number }) =>
      `set the same value on every node (for i in ...; do hccn_tool -i $i -tls -s enable ${p.declared}; done), or change tls: in the cluster file`,
    /** "node2 has 1" */
    peerHas: (p: { node: string; values: string }) => `${p.node} has ${p.values}`,
    peersDiffer: (p: { mine: number; peers: string }) => `the TLS switch is ${p.mine} here but ${p.peers}: devices with TLS on and off cannot link`,
    peersFix: (p: { command: string; nodes: string }) => `set TLS 0 on every node: ${p.command} (run it on ${p.nodes} as needed)`,
    onPeers: (p: { compared: number }) => ` and on the ${p.compared} peers whose facts carry it`,
    asDeclared: ', as the cluster file declares',
    notZero: (p: { mine: number; devices: number; scope: string }) =>
      `the TLS switch is ${p.mine} on all ${p.devices} devices${p.scope}; the guides recommend 0 unless TLS is wanted on every node`,
    notZeroFix: (p: { command: string }) => `${p.command} (on every node)`,
    ok: (p: { devices: number; scope: string }) => `the TLS switch is 0 on all ${p.devices} devices${p.scope}`,
  },
} satisfies CheckEntries;

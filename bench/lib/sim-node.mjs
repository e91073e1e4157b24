// A simulated Atlas 800 node for the benchmark: fake `npu-smi` and `hccn_tool` executables that
// answer from the captures in test/fixtures/ascend (and, where no capture exists, the documented
// formats in test/fixtures/synthetic), after a configurable latency, with hccn_tool's busy lock;
// a --root host tree with /etc/hccn.conf and the driver files; and a cluster file of this node
// and its peers.
//
// Where the answer of one device is needed, it is that device's part of the vendor docs' loop
// capture (`for i in {0..7}; do hccn_tool -i $i ... ; done`), as test/helpers/hccn-host.ts takes
// it; devices 8..15 of an A3 node, which no capture covers, and the peers' addresses reuse the
// capture of device (id mod 8) with the device id or the address substituted. Nothing else is
// changed: the local node's devices 0..7 answer the 8-device loop captures byte for byte
// (test/e2e/sim-node.test.ts proves it).
//
// The fakes are bash scripts that use builtins on the answering path (no cat, no sleep process;
// hccn_tool's lock is one flock), so that their own cost is close to the configured latency and
// the same for qprep and for the shell loops of the manual procedure. Each call is logged (start,
// end, outcome, argv).
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO } from './harness.mjs';
import { makeHostTree } from './host-tree.mjs';

/**
 * How a ping is timed: hccn_tool sends `packets` packets `intervalMs` apart and answers after the
 * last (reference §3.8, §7.4). `-ping` (RoCE) always sends 3, its interval not settable and not
 * documented; `-hccs_ping` as the A3 guide runs it (`hccn_tool -i $i -hccs_ping -g address X`, no
 * option) sends its default `cnt` 3 at its default `interval` 0 ms. A healthy packet's round
 * trip is 0.03 to 1.4 ms in the published runs: left out.
 */
export const PING_MODEL = Object.freeze({ packets: 3, intervalMs: 0 });

/** A ping's time: the call's own, as any hccn_tool query, and its packets' intervals. */
export function pingCallMs(hccnToolMs, model = PING_MODEL) {
  return hccnToolMs + (model.packets - 1) * model.intervalMs;
}

/**
 * Latencies of one call on a real node, in milliseconds: `npu-smi info` 0.4 s (its DCMI start;
 * 0.4 to 1 s on the nodes the vllm-ascend issues show), each hccn_tool query 0.1 s, a ping as
 * PING_MODEL times it. Nothing more precise is published (reference §3.8, §7.4).
 */
export const DEFAULT_LATENCY = Object.freeze({ npuSmiMs: 400, hccnToolMs: 100, pingMs: pingCallMs(100) });

export const FAMILIES = {
  a3: {
    label: 'Atlas 800 A3 (16 dies)',
    devices: 16,
    npuSmiInfo: 'npu-smi-info-a3-16chip-vllm-ascend-5784.txt',
    /** the npu-smi version of the table above */
    driver: { version: '25.2.1', file: 'synthetic/driver-version-info-25.2.1-minimal-derived.txt' },
  },
  a2: {
    label: 'Atlas 800 A2 (8 NPUs)',
    devices: 8,
    npuSmiInfo: 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt',
    driver: { version: '25.3.rc1', file: 'synthetic/driver-version-info-25.3.rc1-derived.txt' },
  },
};

const ascend = (name) => readFileSync(join(REPO, 'test/fixtures/ascend', name), 'utf8');
const fixture = (path) => readFileSync(join(REPO, 'test/fixtures', path), 'utf8');

/** Lines [from, from+count) of a capture, each with its newline: one device's part of a loop. */
export function captureLines(text, from, count = 1) {
  return `${text.split('\n').slice(from, from + count).join('\n')}\n`;
}

/** A ping's answer without its `device D PING X` line, which the fake prints for the call at hand. */
function afterFirstLine(text) {
  return text.slice(text.indexOf('\n') + 1);
}

/** Node k (0-based) of a simulated cluster: the RoCE address of its device d, its vNIC address, its name. */
export function deviceIp(k, family, d) {
  return `11.12.165.${80 + k * FAMILIES[family].devices + d}`;
}
export function vnicIp(k, d) {
  return `192.168.${3 + k}.${10 + d}`;
}
export function nodeName(family, k) {
  return `${family}-node${k + 1}`;
}

/**
 * The answer of `hccn_tool -i <d> -<op> -g` on node k. Captures used: the MindIE DeepSeek-V3
 * guide's 8-device loops (ip, gateway, lldp Ifname, tls switch; link, net_health and netdetect
 * print the same line for every device), the Ascend 950 doc's `-vnic -g` (address substituted).
 */
export function hccnAnswer(op, d, k, family) {
  const slot = d % 8;
  const ip = deviceIp(k, family, d);
  switch (op) {
    case 'ip':
      return captureLines(ascend('hccn-ip-g-a2x8-mindie-dsv3doc.txt'), slot * 2, 2).replace(/^ipaddr:.*$/m, `ipaddr:${ip}`);
    case 'vnic':
      return ascend('hccn-vnic-g-950doc-driver-repo.txt').replace(/^vnic ipaddr: .*$/m, `vnic ipaddr: ${vnicIp(k, d)}`);
    case 'link':
      return captureLines(ascend('hccn-link-up-mindie-dsv3doc.txt'), 0);
    case 'net_health':
      return captureLines(ascend('hccn-net-health-success-mindie-dsv3doc.txt'), 0);
    case 'netdetect':
      return captureLines(ascend('hccn-netdetect-mindie-dsv3doc.txt'), 0);
    case 'gateway':
      return captureLines(ascend('hccn-gateway-a2x8-mindie-dsv3doc.txt'), slot).replace(/Iface:eth\d+/, `Iface:eth${d}`);
    case 'lldp':
      // the `grep Ifname` capture: the line hccn.lldp reads; devices 8.. continue the switch's port numbering
      return d < 8 ? captureLines(ascend('hccn-lldp-ifname-a2x8-mindie-dsv3doc.txt'), d) : `\tIfname: 400GE1/${d}/5:1\n`;
    case 'tls':
      return captureLines(ascend('hccn-tls-switch-a2x8-mindie-dsv3doc.txt'), slot).replace(/^dev_id:\d+/, `dev_id:${d}`);
    // the link diagnostics of --depth deep (and -fec of standard on A2): device (d mod 8)'s answer in
    // mind-cluster's collection bundle before its job, the doc's rs FEC, the derived healthy module;
    // the A3's hccn_tool answers -fec with the source's "does not support" line
    case 'link_stat':
      return bundleAnswer(ascend('hccn-link-stat-g-8dev-before-mindcluster-modelarts.txt'), slot, op).replace(/\[devid \d+\]/g, `[devid ${d}]`);
    case 'stat':
      return bundleAnswer(ascend('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt'), slot, op);
    case 'optical':
      return fixture('synthetic/hccn-optical-g-healthy-derived.txt');
    case 'fec':
      return family === 'a3' ? fixture('synthetic/hccn-fec-g-a3-unsupported-derived.txt') : ascend('hccn-fec-g-rs-mindcluster-doc.txt');
    default:
      throw new Error(`no answer for -${op}`);
  }
}

/** `npu-smi info -t ecc -i <card>` with clean counters: the capture of `chips` chips with the card's id. */
export function eccAnswer(card, chips) {
  const capture = chips === 2 ? fixture('synthetic/npu-smi-info-t-ecc-two-chips-derived.txt') : ascend('npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt');
  return capture.replace(/^(\s*NPU ID\s+: )\d+$/m, `$1${card}`);
}

/** The lines after `device D PING X` of a successful ping from device d: the MindIE loop's block of device (d mod 8). */
export function pingTail(d) {
  return captureLines(ascend('hccn-ping-success-a2x8-mindie-dsv3doc.txt'), (d % 8) * 5 + 1, 4);
}

const HCCN_OPS = ['ip', 'vnic', 'link', 'net_health', 'netdetect', 'gateway', 'lldp', 'tls', 'link_stat', 'stat', 'optical', 'fec'];

/** One device's answer in a collection bundle: the lines after its command line, up to the blank line. */
export function bundleAnswer(bundle, device, op) {
  const lines = bundle.split('\n');
  const start = lines.findIndex((line) => line.trimEnd().endsWith(`hccn_tool -i ${device} -${op} -g`));
  if (start < 0) throw new Error(`no "hccn_tool -i ${device} -${op} -g" in the bundle`);
  const out = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || /hccn_tool -i \d+ -/.test(line)) break;
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}

/** /etc/hccn.conf of node k, in the format of hccn-conf-910b-arthurchiao.txt (address, netmask, netdetect, gateway per device). */
export function hccnConf(k, family) {
  return Array.from({ length: FAMILIES[family].devices }, (_, d) => `address_${d}=${deviceIp(k, family, d)}\nnetmask_${d}=255.255.255.0\nnetdetect_${d}=11.12.165.1\ngateway_${d}=11.12.165.1\nsend_arp_status_${d}=1\n`).join('');
}

/** The cluster file: `nodes` nodes of one family, same-index plan; A3 nodes share super pod 0 (what the spod-info captures report). */
export function clusterYaml(family, nodes) {
  const list = [];
  for (let k = 0; k < nodes; k++) {
    const devices = Array.from({ length: FAMILIES[family].devices }, (_, d) => `{device: ${d}, ip: ${deviceIp(k, family, d)}${family === 'a3' ? `, vnicIp: ${vnicIp(k, d)}` : ''}}`);
    list.push(`  - name: ${nodeName(family, k)}\n    host: 127.0.0.${k + 1}\n${family === 'a3' ? '    superPod: 0\n' : ''}    devices: [${devices.join(', ')}]`);
  }
  return `# A ${nodes}-node ${FAMILIES[family].label} cluster of the benchmark; only ${nodeName(family, 0)} is simulated.
name: bench-${family}-${nodes}
family: ${family}
plan: same-index
master: ${nodeName(family, 0)}
ports:
  - {port: 13389, name: dp-rpc}
tls: 0
nodes:
${list.join('\n')}
`;
}

/**
 * The documented manual verification of node 0 as a bash script: the loops of the vllm-ascend
 * multi-node guide (reference §5.2; the A2 list is §5.1's plus the ping and TLS loops), with two
 * adaptations, both stated in the script: the `spod-info` loop runs over the 8 cards (the doc's
 * `{0..15}` passes die ids as card ids, so half its 32 calls fail, §2.8), and the doc's one
 * cross-node ping loop (`address x.x.x.x`) is run once per peer, device i to the peer's device i:
 * the pings qprep's same-index plan runs.
 */
export function manualProcedure(family, nodes, root) {
  const last = FAMILIES[family].devices - 1;
  const a3 = family === 'a3';
  const lines = [
    '#!/bin/bash',
    `# The documented manual verification of ${nodeName(family, 0)} (${FAMILIES[family].label}), reference §5.${a3 ? '2 (A3)' : '2 (A2)'}.`,
    '# List the NPUs first: which devices the loops below go over',
    'npu-smi info',
    '# Check the remote switch ports',
    `for i in {0..${last}}; do hccn_tool -i $i -lldp -g | grep Ifname; done`,
    '# Get the link status of the Ethernet ports (UP or DOWN)',
    `for i in {0..${last}}; do hccn_tool -i $i -link -g ; done`,
    '# Check the network health status',
    `for i in {0..${last}}; do hccn_tool -i $i -net_health -g ; done`,
    '# View the network detected IP configuration',
    `for i in {0..${last}}; do hccn_tool -i $i -netdetect -g ; done`,
    '# View gateway configuration',
    `for i in {0..${last}}; do hccn_tool -i $i -gateway -g ; done`,
    '# Check NPU HCCN configuration',
    `cat '${root}/etc/hccn.conf'`,
  ];
  if (a3) {
    lines.push('# Get virtual NPU IP.', `for i in {0..${last}}; do hccn_tool -i $i -vnic -g;done`);
    lines.push('# Get superpodid and SDID (the doc loops i over 0..15; -i is the card id, 0..7)', 'for i in {0..7}; do npu-smi info -t spod-info -i $i -c 0;npu-smi info -t spod-info -i $i -c 1;done');
  } else {
    lines.push('# Get NPU IP Addresses', `for i in {0..${last}}; do hccn_tool -i $i -ip -g;done`);
  }
  for (let peer = 1; peer < nodes; peer++) {
    const addresses = Array.from({ length: FAMILIES[family].devices }, (_, d) => (a3 ? vnicIp(peer, d) : deviceIp(peer, family, d)));
    lines.push(`# Cross-node PING test to ${nodeName(family, peer)}: device i to its device i`);
    lines.push(`peer=(${addresses.join(' ')})`);
    lines.push(`for i in {0..${last}}; do hccn_tool -i $i ${a3 ? '-hccs_ping' : '-ping'} -g address \${peer[$i]};done`);
  }
  lines.push('# Check NPU TLS configuration (the same on all nodes)', `for i in {0..${last}}; do hccn_tool -i $i -tls -g ; done | grep switch`, '');
  return lines.join('\n');
}

const seconds = (ms) => (ms / 1000).toFixed(3);

/** Reads a file into $answer with builtins only (no process), keeping every byte but NUL. */
const SHELL_HELPERS = `put() { IFS= read -r -d '' answer < "$1"; printf '%s' "$answer"; }
pause() { read -r -t "$1" <> "$D/never" || true; }
log() { printf '%s %s %s %s\\n' "$start" "$EPOCHREALTIME" "$1" "$ARGS" >> "$D/calls.log"; }`;

function hccnToolScript(dir, latency) {
  return `#!/bin/bash
# Simulated hccn_tool (bench/lib/sim-node.mjs): answers from fixture-derived files after
# ${latency.hccnToolMs} ms (-ping and -hccs_ping: ${latency.pingMs} ms). Like the real tool it refuses a
# second call while one runs, with the documented busy message.
start=$EPOCHREALTIME
D='${dir}'
ARGS="hccn_tool $*"
${SHELL_HELPERS}
exec 9>>"$D/hccn_tool.lock"
if ! flock -n 9; then put "$D/answers/busy"; log busy; exit 1; fi
[ "$1" = -i ] && [ "$4" = -g ] || { echo "hccn_tool: the simulation has no answer for: $*"; log unknown; exit 2; }
dev=$2; op=\${3#-}
case $op in
  ping|hccs_ping)
    pause ${seconds(latency.pingMs)}
    [ "$5" = address ] && [ -n "$6" ] || { echo "hccn_tool: the simulation has no answer for: $*"; log unknown; exit 2; }
    printf 'device %s PING %s\\n' "$dev" "$6"
    if [ -f "$D/answers/reach/$6" ] && [ -f "$D/answers/hccn/$dev/$op-tail" ]; then put "$D/answers/hccn/$dev/$op-tail"; log ok; exit 0; fi
    put "$D/answers/$op-lost-tail"; log ok; exit 0 ;;
esac
pause ${seconds(latency.hccnToolMs)}
# a test's first answer of a sequence (a counter read twice): given once, then the usual answer
if [ -f "$D/answers/hccn/$dev/$op.first" ]; then put "$D/answers/hccn/$dev/$op.first"; mv -f "$D/answers/hccn/$dev/$op.first" "$D/answers/hccn/$dev/$op.used"; log ok; exit 0; fi
if [ -f "$D/answers/hccn/$dev/$op" ]; then put "$D/answers/hccn/$dev/$op"; log ok; exit 0; fi
echo "hccn_tool: the simulation has no answer for: $*"; log unknown; exit 2
`;
}

function npuSmiScript(dir, latency, exclusive) {
  return `#!/bin/bash
# Simulated npu-smi (bench/lib/sim-node.mjs): answers from the captures after ${latency.npuSmiMs} ms.${exclusive ? '\n# Like hccn_tool, it refuses a second call while one runs (the bench proves that qprep serve never makes one).' : ''}
start=$EPOCHREALTIME
D='${dir}'
ARGS="npu-smi $*"
${SHELL_HELPERS}
${exclusive ? 'exec 9>>"$D/npu-smi.lock"\nif ! flock -n 9; then echo "npu-smi is busy"; log busy; exit 1; fi\n' : ''}pause ${seconds(latency.npuSmiMs)}
A="$D/answers/npu-smi"
if [ "$#" = 1 ] && [ "$1" = info ]; then put "$A/info"; log ok; exit 0; fi
if [ "$1 $2" = "info -t" ] && [ "$4" = -i ]; then
  case "$3 $#" in
    "board 5"|"ecc 5") [ -f "$A/$3-$5" ] && { put "$A/$3-$5"; log ok; exit 0; } ;;
    "spod-info 7"|"health 7") [ "$6" = -c ] && [ -f "$A/$3-$5-$7" ] && { put "$A/$3-$5-$7"; log ok; exit 0; } ;;
  esac
fi
echo "npu-smi: the simulation has no answer for: $*"; log unknown; exit 2
`;
}

function write(path, content, mode) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  if (mode) chmodSync(path, mode);
}

/**
 * Builds node 0 of a `nodes`-node cluster of `family` under `dir`: dir/bin (npu-smi, hccn_tool:
 * put it first on PATH), dir/root (the --root tree), dir/cluster.yaml, dir/calls.log (one line a
 * call: start end outcome argv; start and end in seconds). With `exclusiveNpuSmi` npu-smi answers
 * "busy" (logged as such) to a call made while another runs, as hccn_tool does.
 */
export function makeSimNode({ dir, family, nodes = 4, latency = DEFAULT_LATENCY, exclusiveNpuSmi = false }) {
  const spec = FAMILIES[family];
  if (!spec) throw new Error(`unknown family ${family}: a3 or a2`);
  const k = 0;
  const answers = join(dir, 'answers');
  for (let d = 0; d < spec.devices; d++) {
    for (const op of HCCN_OPS) {
      if (op === 'vnic' && family !== 'a3') continue;
      write(join(answers, 'hccn', String(d), op), hccnAnswer(op, d, k, family));
    }
    write(join(answers, 'hccn', String(d), 'ping-tail'), pingTail(d));
    // no capture of -hccs_ping exists: the source's print format, as test/fixtures/synthetic has it
    if (family === 'a3') write(join(answers, 'hccn', String(d), 'hccs_ping-tail'), afterFirstLine(fixture('synthetic/hccn-hccs-ping-success-a3.txt')));
  }
  // an address nobody in the cluster has: packets lost (documented formats; no capture of a failed ping exists)
  write(join(answers, 'ping-lost-tail'), afterFirstLine(fixture('synthetic/hccn-ping-no-reply.txt')));
  write(join(answers, 'hccs_ping-lost-tail'), afterFirstLine(fixture('synthetic/hccn-hccs-ping-loss-a3.txt')));
  write(join(answers, 'busy'), fixture('synthetic/hccn-busy.txt'));
  // every device of the cluster answers (the docs' capture pings a device of its own node): pings
  // to the cluster file's addresses succeed, others get no reply
  for (let peer = 0; peer < nodes; peer++) {
    for (let d = 0; d < spec.devices; d++) {
      write(join(answers, 'reach', deviceIp(peer, family, d)), '');
      if (family === 'a3') write(join(answers, 'reach', vnicIp(peer, d)), '');
    }
  }
  write(join(answers, 'npu-smi', 'info'), ascend(spec.npuSmiInfo));
  // 8 cards on both: one die each on A2, two on A3
  for (let card = 0; card < 8; card++) {
    // no 910B or A3 `-t board` capture: the 910B2C one (another driver version; npu.firmware-version judges it)
    write(join(answers, 'npu-smi', `board-${card}`), ascend('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt'));
    // clean HBM: the 910A capture of mind-cluster's log-collection guide (the only public -t ecc
    // capture with the card header; 910B and A3 drivers print no DDR lines), the card's id in its
    // NPU ID line; an A3 card's answer repeats the chip block for its second die (derived, as
    // test/fixtures/synthetic/README.md says)
    write(join(answers, 'npu-smi', `ecc-${card}`), eccAnswer(card, family === 'a3' ? 2 : 1));
    for (const chip of family === 'a3' ? [0, 1] : [0]) {
      if (family === 'a3') write(join(answers, 'npu-smi', `spod-info-${card}-${chip}`), ascend(`npu-smi-info-t-spod-info-a3-dev${chip}-mindcluster-vllm-log.txt`));
      write(join(answers, 'npu-smi', `health-${card}-${chip}`), ascend('npu-smi-info-t-health-chip-mindcluster-fixture.txt'));
    }
  }
  // a FIFO nobody writes to: `read -t` on it is a sleep without a process
  const fifo = join(dir, 'never');
  const made = spawnSync('mkfifo', [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo ${fifo}: ${made.stderr}`);

  const bin = join(dir, 'bin');
  write(join(bin, 'hccn_tool'), hccnToolScript(dir, latency), 0o755);
  write(join(bin, 'npu-smi'), npuSmiScript(dir, latency, exclusiveNpuSmi), 0o755);

  const root = makeHostTree(join(dir, 'root'));
  write(join(root, 'etc/hccn.conf'), hccnConf(k, family));
  write(join(root, 'usr/local/Ascend/driver/version.info'), fixture(spec.driver.file));
  write(join(root, 'usr/local/Ascend/firmware/version.info'), ascend('firmware-version-info-7.7.0.1.231-mindie-notes.txt'));
  write(join(root, 'etc/ascend_install.info'), ascend('ascend-install-info-llm-action.txt'));
  for (const lib of ['usr/local/dcmi/libdcmi.so', 'usr/local/Ascend/driver/lib64/driver/libascend_hal.so', 'usr/local/Ascend/driver/lib64/common/libc_sec.so']) write(join(root, lib), 'ELF');

  const cluster = join(dir, 'cluster.yaml');
  write(cluster, clusterYaml(family, nodes));
  const manual = join(dir, 'manual.sh');
  write(manual, manualProcedure(family, nodes, root), 0o755);
  return {
    family,
    name: nodeName(family, k),
    devices: spec.devices,
    nodes,
    dir,
    bin,
    root,
    cluster,
    manual,
    log: join(dir, 'calls.log'),
    latency,
    /** the environment qprep and the manual procedure run with: the fakes first on PATH */
    env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/root', LC_ALL: 'C' },
  };
}

/** The calls logged since the log was last cleared: tool, outcome, argv, start and duration (ms). */
export function readCalls(log) {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, outcome, tool, ...args] = line.split(' ');
      return { tool, outcome, args, startMs: Number(start) * 1000, ms: (Number(end) - Number(start)) * 1000 };
    });
}

/** The most calls of `tool` that were ever running at once. */
export function maxOverlap(calls, tool) {
  const edges = calls.filter((c) => c.tool === tool).flatMap((c) => [
    { at: c.startMs, delta: 1 },
    { at: c.startMs + c.ms, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.delta;
    most = Math.max(most, open);
  }
  return most;
}

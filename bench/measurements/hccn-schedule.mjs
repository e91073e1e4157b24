import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeHostTree } from '../lib/host-tree.mjs';
import { REPO, stats, timed } from '../lib/harness.mjs';

/**
 * What one call costs inside the fake tool. Nobody has published how long a real call takes
 * (reference §3.8: "well under a second"), so two settings: 50 ms, where process start-up
 * dominates and any per-call overhead of qprep shows, and 200 ms, closer to a tool that talks
 * to the device.
 */
const CALL_MS = [50, 200];
const RATIO = 1.2;
const SLACK_MS = 500;

const fixture = (name) => readFileSync(join(REPO, 'test/fixtures/ascend', name), 'utf8');

/**
 * A fake hccn_tool that sleeps CALL_MS per call, answers in hccn_tool's formats, and logs
 * each call's start and end (nanoseconds) and argv. The log shows whether two calls ever
 * overlapped, and its argv list is replayed by a plain shell loop, one call after the other
 * (as the vendor guides loop over the devices): that loop's wall time is the serialized
 * hccn_tool time, process start-up included, which on a small VM is most of a call.
 */
function fakeHccnTool(log, callMs) {
  return `#!/bin/sh
start=$(date +%s%N)
sleep ${callMs / 1000}
dev=$2; op=$3
case $op in
  -ip) printf 'ipaddr:11.12.170.%d\\nnetmask:255.255.255.0\\n' $((80 + dev)) ;;
  -vnic) printf 'vnic link status: UP\\nvnic ipaddr: 192.168.3.%d\\nvnic netmask: 255.255.255.0\\n' $((10 + dev)) ;;
  -link) echo 'link status: UP' ;;
  -net_health) echo 'net health status: Success' ;;
  -netdetect) echo 'netdetect address: 11.12.170.1' ;;
  -gateway) echo "default gateway:11.12.170.1, Iface:eth$dev" ;;
  -lldp) printf '\\tIfname: 400GE1/1/%d:1\\n' "$dev" ;;
  -tls) echo "dev_id:$dev, tls switch[0](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls alarm time threshold[60]days" ;;
  -hccs_ping)
    echo "device $dev PING $6"
    for seq in 0 1 2; do echo 'This pkt ping success!'; echo "recv seq $seq, time = 9.000us, L1 plane check result = 0x0"; done
    echo '3 packets transmitted, 3 received, 0.00% packets loss' ;;
  -ping) printf 'device %s PING %s\\nrecv seq=0,time=0.060000ms\\nrecv seq=1,time=0.060000ms\\nrecv seq=2,time=0.060000ms\\n3 packets transmitted, 3 received, 0.00%% packet loss\\n' "$dev" "$6" ;;
  *) echo "unknown op $op"; exit 2 ;;
esac
echo "$start $(date +%s%N) $*" >> '${log}'
`;
}

/** A fake npu-smi: the A3 16-die table, and the captured spod-info of each die. */
function fakeNpuSmi(dir) {
  writeFileSync(join(dir, 'table.txt'), fixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'));
  writeFileSync(join(dir, 'spod0.txt'), fixture('npu-smi-info-t-spod-info-a3-dev0-mindcluster-vllm-log.txt'));
  writeFileSync(join(dir, 'spod1.txt'), fixture('npu-smi-info-t-spod-info-a3-dev1-mindcluster-vllm-log.txt'));
  writeFileSync(join(dir, 'board.txt'), fixture('npu-smi-info-t-board-910a-mindcluster-fixture.txt'));
  return `#!/bin/sh
[ "$#" -eq 1 ] && exec cat '${dir}/table.txt'
[ "$3" = spod-info ] && exec cat "${dir}/spod$7.txt"
[ "$3" = board ] && exec cat '${dir}/board.txt'
exit 2
`;
}

function clusterFile() {
  const devices = (third, vnicBase) => Array.from({ length: 16 }, (_, d) => `{device: ${d}, ip: 11.12.${third}.${80 + d}, vnicIp: 192.168.${vnicBase}.${10 + d}}`).join(', ');
  return `family: a3
nodes:
  - {name: a3n1, host: 127.0.0.1, superPod: 0, devices: [${devices(170, 3)}]}
  - {name: a3n2, host: 127.0.0.2, superPod: 0, devices: [${devices(171, 4)}]}
`;
}

/** The calls of one run, from the log: their argv, count, summed in-tool duration, and the most that ever overlapped. */
function readLog(log) {
  const calls = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, ...args] = line.split(' ');
      return { start: BigInt(start), end: BigInt(end), args };
    });
  const toolMs = calls.reduce((sum, c) => sum + Number(c.end - c.start) / 1e6, 0);
  const edges = calls.flatMap((c) => [
    { at: c.start, delta: 1 },
    { at: c.end, delta: -1 },
  ]);
  edges.sort((a, b) => (a.at === b.at ? a.delta - b.delta : a.at < b.at ? -1 : 1));
  let open = 0;
  let overlap = 0;
  for (const edge of edges) {
    open += edge.delta;
    overlap = Math.max(overlap, open);
  }
  return { count: calls.length, toolMs, overlap, argvs: calls.map((c) => c.args) };
}

/** One setting: `runs` interleaved pairs of (qprep check, the same calls from a shell loop), after one warm-up pair. */
async function measure({ work, tree, callMs, runs }) {
  mkdirSync(work, { recursive: true });
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(work, 'calls.log');
  writeFileSync(join(bin, 'hccn_tool'), fakeHccnTool(log, callMs));
  writeFileSync(join(bin, 'npu-smi'), fakeNpuSmi(work));
  chmodSync(join(bin, 'hccn_tool'), 0o755);
  chmodSync(join(bin, 'npu-smi'), 0o755);
  mkdirSync(join(tree, 'etc'), { recursive: true });
  writeFileSync(join(tree, 'etc/hccn.conf'), Array.from({ length: 16 }, (_, d) => `address_${d}=11.12.170.${80 + d}\nnetmask_${d}=255.255.255.0\n`).join(''));
  const cluster = join(work, 'cluster.yaml');
  writeFileSync(cluster, clusterFile());
  const argv = [process.execPath, join(REPO, 'bin', 'qprep.js'), 'check', '--format', 'json', '--root', tree, '--cluster', cluster, '--node', 'a3n1'];
  const env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/root' };

  const wall = [];
  const serial = [];
  const inTool = [];
  const overheads = [];
  /** wall / serial of each interleaved pair: a slow moment of a shared machine hits both halves */
  const ratios = [];
  let last;
  for (let round = 0; round < runs + 1; round++) {
    rmSync(log, { force: true });
    const result = await timed(argv, { env });
    if (result.exitCode !== 0 && result.exitCode !== 1) throw new Error(`qprep check exited ${result.exitCode}: ${result.stderr.slice(0, 400)}`);
    const calls = readLog(log);
    // the same calls, one after the other, from a shell loop
    const loop = join(work, 'serial.sh');
    writeFileSync(loop, `${calls.argvs.map((args) => `'${join(bin, 'hccn_tool')}' ${args.join(' ')} >/dev/null`).join('\n')}\n`);
    rmSync(log, { force: true });
    const serialRun = await timed(['/bin/sh', loop], { env });
    if (round === 0) continue; // warm-up: file caches, node's compile cache
    wall.push(result.ms);
    serial.push(serialRun.ms);
    inTool.push(calls.toolMs);
    overheads.push(result.ms - serialRun.ms);
    ratios.push(result.ms / serialRun.ms);
    last = { result, calls };
  }
  const report = JSON.parse(last.result.stdout);
  const statusOf = (id) => report.checks.find((c) => c.id === id)?.status;
  const notOk = report.checks.filter((c) => c.category === 'hccn' && c.status !== 'pass').map((c) => `${c.id} ${c.status}`);
  if (notOk.length > 0) throw new Error(`the HCCN checks should all pass on the fake A3 node: ${notOk.join(', ')}`);
  const w = stats(wall);
  const s = stats(serial);
  const o = stats(overheads);
  const budget = RATIO * s.median + SLACK_MS;
  return {
    rows: [
      { label: `${callMs} ms: qprep check --cluster (${report.checks.length} checks, hccn.peers ${statusOf('hccn.peers')})`, unit: 'ms', ...w },
      { label: `${callMs} ms: serialized hccn_tool time (${last.calls.count} calls, a shell loop)`, unit: 'ms', ...s },
      { label: `${callMs} ms: time inside the tool (sum of its own durations)`, unit: 'ms', ...stats(inTool) },
      { label: `${callMs} ms: wall time minus serialized hccn_tool time`, unit: 'ms', ...o },
    ],
    verdicts: [
      {
        what: `16-die A3 node, ${last.calls.count} hccn_tool calls of ${callMs} ms`,
        ok: w.median <= budget,
        detail: `median ${(w.median / 1000).toFixed(2)} s = ${(w.median / s.median).toFixed(3)} x the serialized hccn_tool time (${(s.median / 1000).toFixed(2)} s; pair by pair ${ratios.map((r) => r.toFixed(2)).join(', ')}); budget ${RATIO} x + ${SLACK_MS / 1000} s = ${(budget / 1000).toFixed(2)} s; the rest of the check adds ${(o.median / 1000).toFixed(2)} s`,
      },
      { what: `${callMs} ms: hccn_tool never ran twice at once`, ok: last.calls.overlap <= 1, detail: `at most ${last.calls.overlap} call(s) at once` },
    ],
  };
}

export default {
  name: 'hccn-schedule',
  title: `a full \`qprep check --cluster\` of a 16-die A3 node against the serialized hccn_tool time (fake tool: ${CALL_MS.join(' or ')} ms a call)`,
  target: `DESIGN §7: a full check of a 16-NPU node costs at most ${RATIO} x the serialized hccn_tool time + ${SLACK_MS / 1000} s`,
  defaultRuns: 3,
  async run({ runs }) {
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-hccn-'));
    const tree = makeHostTree();
    try {
      const rows = [];
      const verdicts = [];
      for (const callMs of CALL_MS) {
        const measured = await measure({ work: join(work, `${callMs}ms`), tree, callMs, runs });
        rows.push(...measured.rows);
        verdicts.push(...measured.verdicts);
      }
      return { rows, verdicts };
    } finally {
      rmSync(tree, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    }
  },
};

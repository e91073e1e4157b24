import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify as toYaml } from 'yaml';
import { DelegatingHost } from '../../src/host/delegating.js';
import { LiveHost } from '../../src/host/live.js';
import {
  probeFail,
  refuseWrite,
  probeOk,
  type CommandOptions,
  type CommandResult,
  type HostInventory,
  type NetInterface,
  type Probe,
} from '../../src/host/types.js';

/**
 * A multi-node Ascend cluster without NPUs, for integration tests: every node is a network
 * namespace with a host NIC, every NPU device is a namespace of its own with a RoCE port (and, on
 * A3 super pod members, a vNIC on an HCCS plane), and the "switches" are bridges in one more
 * namespace. Each node gets a fake `hccn_tool` (a sh script) whose `-ping` / `-hccs_ping` run the
 * real `ping` inside the device's namespace and print hccn_tool's format (reference §3.8, §3.9),
 * whose `-link -g` / `-vnic -g` report the real state of the device's port, and whose other
 * answers come from a per-node fixture tree. Like the real tool it answers "hccn_tool is busy"
 * when two calls overlap on one node.
 *
 * A device has its own namespace because an NPU's port has its own network stack: putting all
 * device addresses of a node in one namespace would let the kernel answer for a device whose
 * port is cut, and cutting a link would prove nothing.
 *
 * Addresses (198.18.0.0/15 only): host NIC of node k 198.19.0.(10+k)/24, RoCE port of device i
 * 198.18.k.(10+i)/16, vNIC 198.19.(128+k).(10+i)/17.
 */

const run = promisify(execFile);

export interface HarnessNodeSpec {
  name: string;
  /** devices 0..n-1 (default 2) */
  devices?: number;
  /** A3: the super pod this node belongs to; its devices get vNICs on that pod's HCCS bridge */
  superPod?: number;
  /** the TLS switch `-tls -g` reports, for every device or per device (default 0) */
  tls?: number | ((device: number) => number);
  /** fixed answers by sub-command without the dash (`net_health`, `lldp`, ...), overriding the defaults */
  answers?: Record<string, string | ((device: number) => string)>;
  /** what a fake `npu-smi info` prints on this node (a capture of test/fixtures/ascend); no npu-smi when absent */
  npuSmi?: string;
}

export interface HarnessSpec {
  nodes: HarnessNodeSpec[];
}

export interface HarnessDevice {
  device: number;
  ip: string;
  vnicIp: string | null;
  namespace: string;
}

export interface HarnessNode {
  name: string;
  /** 1-based position, used in the addresses */
  index: number;
  namespace: string;
  hostAddress: string;
  superPod: number | null;
  devices: HarnessDevice[];
  /** holds the fake hccn_tool; put it first on PATH */
  binDir: string;
  /** answers/<device>/<op>, answers/all/<op> (+ .rc for an exit code) */
  answersDir: string;
  /** a host tree for qprep's --root: etc/hccn.conf with the node's device addresses */
  rootDir: string;
}

export type Plane = 'roce' | 'vnic' | 'host';

/** Every name starts with qp<pid>x<random>-: unique per harness, and a dead pid marks leftovers. */
const NAME_PATTERN = /^qp(\d+)x[0-9a-z]+-/;

async function ip(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run('ip', args, { timeout: 20_000 });
    return stdout;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new Error(`ip ${args.join(' ')}: ${detail}`);
  }
}

async function which(name: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(':').concat(['/usr/sbin', '/sbin', '/usr/bin', '/bin'])) {
    try {
      await run('test', ['-x', `${dir}/${name}`]);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** Whether this machine lets the tests create network namespaces, and if not, why. */
export async function netnsSupport(): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (process.platform !== 'linux') return { ok: false, reason: `network namespaces need Linux (this is ${process.platform})` };
  if (!(await which('ip'))) return { ok: false, reason: 'the ip command (Debian package iproute2) is not installed' };
  const probe = `qp${process.pid}xprobe-support`;
  try {
    await ip('netns', 'add', probe);
  } catch (error) {
    return { ok: false, reason: `cannot create a network namespace here (${(error as Error).message.split('\n')[0]}); root or CAP_SYS_ADMIN is needed` };
  }
  await ip('netns', 'del', probe).catch(() => undefined);
  return { ok: true };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function listNamespaces(): Promise<string[]> {
  const out = await ip('netns', 'list');
  return out
    .split('\n')
    .map((line) => line.split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

/** Removes namespaces left by harnesses whose process died before it could clean up. */
export async function sweepLeftovers(): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await listNamespaces()) {
    const match = NAME_PATTERN.exec(name);
    if (match && !pidAlive(Number(match[1]))) {
      await ip('netns', 'del', name).catch(() => undefined);
      removed.push(name);
    }
  }
  return removed;
}

/** The fake hccn_tool of one node. Only `ip`, `ping`, `awk` and `cat` are needed. */
function fakeTool(node: HarnessNode, lockDir: string, nsPrefix: string): string {
  return `#!/bin/sh
# Fake hccn_tool of test node ${node.name} (see test/helpers/netns-cluster.ts).
ANSWERS='${node.answersDir}'
NS_PREFIX='${nsPrefix}'
LOCK='${lockDir}'
export LC_ALL=C

usage() { echo "usage: hccn_tool -i <device> <op> -g [address <ip>]" >&2; exit 2; }
[ "$#" -ge 3 ] && [ "$1" = "-i" ] || usage
dev=$2; op=$3; shift 3
case $dev in ''|*[!0-9]*) echo "Device id is invalid: $dev"; exit 1;; esac
ns="\${NS_PREFIX}d$dev"
[ -e "/run/netns/$ns" ] || { echo "Device id is invalid: $dev"; exit 1; }

# One call at a time per node, as the real tool enforces.
if ! mkdir "$LOCK" 2>/dev/null; then
  holder=$(cat "$LOCK/pid" 2>/dev/null)
  if [ -z "$holder" ] || kill -0 "$holder" 2>/dev/null; then echo "hccn_tool is busy, please try again"; exit 1; fi
  rm -rf "$LOCK"
  mkdir "$LOCK" 2>/dev/null || { echo "hccn_tool is busy, please try again"; exit 1; }
fi
echo $$ > "$LOCK/pid"
trap 'rm -rf "$LOCK"' EXIT
trap 'exit 143' TERM INT

answer() {
  for f in "$ANSWERS/$dev/$1" "$ANSWERS/all/$1"; do
    if [ -f "$f" ]; then
      cat "$f"
      if [ -f "$f.rc" ]; then exit "$(cat "$f.rc")"; fi
      exit 0
    fi
  done
  return 1
}

port_up() {
  case $(ip -n "$ns" -o link show "$1" 2>/dev/null) in *LOWER_UP*) echo UP;; *) echo DOWN;; esac
}

ping_target() {
  [ "$1" = "-g" ] && [ "$2" = "address" ] && [ -n "$3" ] || usage
  case $3 in *[!0-9.]*) echo "address is invalid: $3"; exit 1;; esac
  target=$3
}

do_ping() {
  method=$1; iface=roce
  [ "$method" = hccs ] && iface=vnic
  echo "device $dev PING $target"
  ip netns exec "$ns" ping -n -c 3 -i 0.1 -W 1 -I "$iface" "$target" 2>&1 | awk -v method="$method" '
    /icmp_seq=[0-9]+ .*time=/ {
      match($0, /icmp_seq=[0-9]+/); seq = substr($0, RSTART + 9, RLENGTH - 9) + 0
      match($0, /time=[0-9.]+/); got[seq] = substr($0, RSTART + 5, RLENGTH - 5)
      next
    }
    /Destination Host Unreachable/ { unreachable = 1 }
    END {
      rx = 0
      for (s = 1; s <= 3; s++) {
        if (s in got) {
          rx++
          if (method == "hccs") { print "This pkt ping success!"; printf "recv seq %d, time = %.3fus, L1 plane check result = 0x0\\n", s - 1, got[s] * 1000 }
          else printf "recv seq=%d,time=%.6fms\\n", s - 1, got[s]
        } else if (method == "hccs") print "This pkt check recv msg fail!"
        else printf "recv time out seq=%d\\n", s - 1
      }
      if (unreachable && rx == 0 && method == "roce") { print "Destination Host Unreachable"; exit 1 }
      if (method == "hccs") printf "3 packets transmitted, %d received, %.2f%% packets loss\\n", rx, (3 - rx) * 100 / 3
      else printf "3 packets transmitted, %d received, %.2f%% packet loss\\n", rx, (3 - rx) * 100 / 3
    }'
}

case $op in
  -ping) ping_target "$@"; do_ping roce; exit $? ;;
  -hccs_ping) ping_target "$@"; do_ping hccs; exit $? ;;
  -link) answer link || echo "link status: $(port_up roce)" ;;
  -vnic)
    answer vnic && exit 0
    [ -f "$ANSWERS/$dev/vnic.address" ] || { echo "vnic is not supported on this device"; exit 1; }
    echo "vnic link status: $(port_up vnic)"
    set -- $(cat "$ANSWERS/$dev/vnic.address")
    echo "vnic ipaddr: $1"
    echo "vnic netmask: $2"
    ;;
  -*) answer "\${op#-}" || { echo "hccn_tool: this test double has no answer for $op"; exit 2; } ;;
  *) usage ;;
esac
`;
}

/** A Host whose commands run inside one node's namespace, with the node's fake tools first on PATH. */
export class NamespaceHost extends DelegatingHost {
  constructor(
    private readonly node: HarnessNode,
    timeoutMs = 10_000,
  ) {
    super(new LiveHost({ timeoutMs, env: { PATH: `${node.binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/root' } }), `netns ${node.namespace}`);
  }

  override writeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, 'the namespace harness only reads');
  }
  override removeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, 'the namespace harness only reads');
  }
  override rename(from: string): Promise<Probe<void>> {
    return refuseWrite(from, 'the namespace harness only reads');
  }
  override makeDirectory(path: string): Promise<Probe<void>> {
    return refuseWrite(path, 'the namespace harness only reads');
  }

  override async run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    const result = await this.inner.run(['ip', 'netns', 'exec', this.node.namespace, ...argv], options);
    return { ...result, argv: [...argv] };
  }
  /** The machine's inventory with the node's interfaces: its veth pairs, not the machine's NICs. */
  override async inventory(): Promise<HostInventory> {
    const [machine, listed] = await Promise.all([this.inner.inventory(), this.interfaces()]);
    const nics = listed.ok
      ? listed.value.map((i) => ({
          name: i.name,
          mac: i.mac,
          ipv4: i.addresses.find((a) => a.family === 'IPv4')?.address ?? null,
          mtu: i.mtu,
          speedMbps: null,
          duplex: null,
          state: i.operState,
          virtual: true,
        }))
      : null;
    return { ...machine, nics };
  }
  /** The node's interfaces, from `ip -json addr` inside its namespace. */
  override async interfaces(): Promise<Probe<NetInterface[]>> {
    try {
      const list = JSON.parse(await ip('-n', this.node.namespace, '-json', 'addr', 'show')) as Array<{
        ifname: string;
        flags: string[];
        operstate: string;
        mtu?: number;
        address?: string;
        addr_info?: Array<{ family: string; local: string; prefixlen: number }>;
      }>;
      return probeOk(
        list.map((entry) => ({
          name: entry.ifname,
          adminUp: entry.flags.includes('UP'),
          operState: entry.operstate.toLowerCase(),
          running: entry.flags.includes('LOWER_UP'),
          mtu: entry.mtu ?? null,
          mac: entry.address ?? null,
          loopback: entry.flags.includes('LOOPBACK'),
          addresses: (entry.addr_info ?? []).map((a) => ({
            family: a.family === 'inet6' ? ('IPv6' as const) : ('IPv4' as const),
            address: a.local,
            netmask: '',
            prefix: a.prefixlen,
          })),
        })),
      );
    } catch (error) {
      return probeFail('EOTHER', (error as Error).message);
    }
  }
}

function defaultAnswers(node: HarnessNode, spec: HarnessNodeSpec, device: HarnessDevice): Record<string, string> {
  const tls = typeof spec.tls === 'function' ? spec.tls(device.device) : (spec.tls ?? 0);
  const answers: Record<string, string> = {
    ip: `ipaddr:${device.ip}\nnetmask:255.255.0.0\n`,
    net_health: 'net health status: Success\n',
    netdetect: 'netdetect address: 198.18.0.1\n',
    gateway: `default gateway:198.18.0.1, Iface:eth${device.device}\n`,
    lldp: `\tIfname: 400GE1/${node.index}/${device.device}:1\n`,
    tls: `dev_id:${device.device}, tls switch[${tls}](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls alarm time threshold[60]days\n`,
    // hccn.fec asks every A2 device (test/fixtures/ascend/hccn-fec-g-rs-mindcluster-doc.txt, without the doc's indent)
    fec: 'fec mode: rs FEC mode\n',
  };
  for (const [op, value] of Object.entries(spec.answers ?? {})) answers[op] = typeof value === 'function' ? value(device.device) : value;
  return answers;
}

export class NetnsCluster {
  readonly nodes: HarnessNode[] = [];
  private readonly namespaces: string[] = [];
  private destroyed = false;
  private readonly onExit = () => this.destroySync();

  private constructor(
    readonly id: string,
    readonly dir: string,
  ) {}

  get switchNamespace(): string {
    return `${this.id}-sw`;
  }

  /** Builds the cluster; on any failure it removes what it had built and rethrows. */
  static async create(spec: HarnessSpec): Promise<NetnsCluster> {
    if (!(await which('ping'))) throw new Error('ping (Debian package iputils-ping) is needed by the namespace tests; .ci/run installs it');
    await sweepLeftovers();
    const id = `qp${process.pid}x${Math.random().toString(36).slice(2, 7)}`;
    const cluster = new NetnsCluster(id, mkdtempSync(join(tmpdir(), `qprep-netns-${id}-`)));
    process.once('exit', cluster.onExit);
    try {
      await cluster.build(spec);
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  private async addNamespace(name: string): Promise<void> {
    this.namespaces.push(name);
    await ip('netns', 'add', name);
    await ip('-n', name, 'link', 'set', 'lo', 'up');
  }

  /** A veth pair: `inside` in `namespace`, `port` in the switch namespace, enslaved to `bridge`. */
  private async cable(namespace: string, inside: string, port: string, bridge: string, address: string): Promise<void> {
    const sw = this.switchNamespace;
    await ip('link', 'add', 'name', inside, 'netns', namespace, 'type', 'veth', 'peer', 'name', port, 'netns', sw);
    await ip('-n', sw, 'link', 'set', port, 'master', bridge, 'up');
    await ip('-n', namespace, 'addr', 'add', address, 'dev', inside);
    await ip('-n', namespace, 'link', 'set', inside, 'up');
  }

  private async build(spec: HarnessSpec): Promise<void> {
    const sw = this.switchNamespace;
    await this.addNamespace(sw);
    const pods = [...new Set(spec.nodes.map((n) => n.superPod).filter((p): p is number => p !== undefined))];
    for (const bridge of ['bhost', 'broce', ...pods.map((p) => `bpod${p}`)]) {
      await ip('-n', sw, 'link', 'add', bridge, 'type', 'bridge');
      await ip('-n', sw, 'link', 'set', bridge, 'up');
    }
    for (const [position, nodeSpec] of spec.nodes.entries()) {
      const index = position + 1;
      const namespace = `${this.id}-n${index}`;
      const nodeDir = join(this.dir, `n${index}`);
      const node: HarnessNode = {
        name: nodeSpec.name,
        index,
        namespace,
        hostAddress: `198.19.0.${10 + index}`,
        superPod: nodeSpec.superPod ?? null,
        devices: [],
        binDir: join(nodeDir, 'bin'),
        answersDir: join(nodeDir, 'answers'),
        rootDir: join(nodeDir, 'root'),
      };
      await this.addNamespace(namespace);
      await this.cable(namespace, 'eth0', `h${index}`, 'bhost', `${node.hostAddress}/24`);
      for (let d = 0; d < (nodeSpec.devices ?? 2); d++) {
        const device: HarnessDevice = {
          device: d,
          ip: `198.18.${index}.${10 + d}`,
          vnicIp: nodeSpec.superPod === undefined ? null : `198.19.${128 + index}.${10 + d}`,
          namespace: `${namespace}d${d}`,
        };
        await this.addNamespace(device.namespace);
        await this.cable(device.namespace, 'roce', `r${index}d${d}`, 'broce', `${device.ip}/16`);
        if (device.vnicIp) await this.cable(device.namespace, 'vnic', `v${index}d${d}`, `bpod${nodeSpec.superPod}`, `${device.vnicIp}/17`);
        node.devices.push(device);
        const answers = defaultAnswers(node, nodeSpec, device);
        for (const [op, text] of Object.entries(answers)) this.setAnswer(node, d, op, text);
        if (device.vnicIp) this.setAnswer(node, d, 'vnic.address', `${device.vnicIp} 255.255.128.0\n`);
      }
      mkdirSync(node.binDir, { recursive: true });
      const tool = join(node.binDir, 'hccn_tool');
      writeFileSync(tool, fakeTool(node, join(nodeDir, 'hccn_tool.lock'), namespace));
      chmodSync(tool, 0o755);
      if (nodeSpec.npuSmi !== undefined) {
        const table = join(nodeDir, 'npu-smi-info.txt');
        writeFileSync(table, nodeSpec.npuSmi);
        const npuSmi = join(node.binDir, 'npu-smi');
        writeFileSync(npuSmi, `#!/bin/sh\n# Fake npu-smi of test node ${node.name}: prints a captured table.\n[ "$#" -eq 1 ] && [ "$1" = info ] && exec cat '${table}'\necho "this test double answers only: npu-smi info" >&2\nexit 2\n`);
        chmodSync(npuSmi, 0o755);
      }
      mkdirSync(join(node.rootDir, 'etc'), { recursive: true });
      writeFileSync(join(node.rootDir, 'etc', 'hccn.conf'), node.devices.map((d) => `address_${d.device}=${d.ip}\nnetmask_${d.device}=255.255.0.0\nnetdetect_${d.device}=198.18.0.1\ngateway_${d.device}=198.18.0.1\n`).join(''));
      this.nodes.push(node);
    }
  }

  node(name: string): HarnessNode {
    const found = this.nodes.find((n) => n.name === name);
    if (!found) throw new Error(`no node ${name} in this harness (${this.nodes.map((n) => n.name).join(', ')})`);
    return found;
  }

  /** Replaces an answer of the fake tool: for one device or for all (`all`). */
  setAnswer(nodeOrName: HarnessNode | string, device: number | 'all', op: string, text: string, exitCode?: number): void {
    const node = typeof nodeOrName === 'string' ? this.node(nodeOrName) : nodeOrName;
    const dir = join(node.answersDir, String(device));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, op), text);
    if (exitCode !== undefined) writeFileSync(join(dir, `${op}.rc`), String(exitCode));
    else rmSync(join(dir, `${op}.rc`), { force: true });
  }

  /** The cluster file of this harness, as an object (write it as YAML with writeClusterFile). */
  clusterDocument(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      ...extra,
      nodes: this.nodes.map((node) => ({
        name: node.name,
        host: node.hostAddress,
        ...(node.superPod === null ? {} : { superPod: node.superPod }),
        devices: node.devices.map((d) => ({ device: d.device, ip: d.ip, ...(d.vnicIp ? { vnicIp: d.vnicIp } : {}) })),
      })),
    };
  }

  writeClusterFile(extra: Record<string, unknown> = {}, name = 'cluster.yaml'): string {
    const path = join(this.dir, name);
    writeFileSync(path, toYaml(this.clusterDocument(extra)));
    return path;
  }

  hostFor(name: string, timeoutMs?: number): NamespaceHost {
    return new NamespaceHost(this.node(name), timeoutMs);
  }

  /** Cuts (up = false) or restores a cable at the switch: a device's RoCE port or vNIC, or a node's host NIC. */
  async setLink(name: string, plane: Plane, device: number | null, up: boolean): Promise<void> {
    const node = this.node(name);
    const port = plane === 'host' ? `h${node.index}` : `${plane === 'roce' ? 'r' : 'v'}${node.index}d${device}`;
    await ip('-n', this.switchNamespace, 'link', 'set', port, up ? 'up' : 'down');
  }

  /** Holds the node's hccn_tool lock as another program would; returns the release. */
  holdToolLock(name: string): () => void {
    const lock = join(this.dir, `n${this.node(name).index}`, 'hccn_tool.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return () => rmSync(lock, { recursive: true, force: true });
  }

  /** Runs a command inside a node's namespace with its fake tools first on PATH. */
  async exec(name: string, argv: string[], env: Record<string, string> = {}): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const node = this.node(name);
    try {
      const { stdout, stderr } = await run('ip', ['netns', 'exec', node.namespace, 'env', `PATH=${node.binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`, ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv], {
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      return { exitCode: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { exitCode: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  /** Namespaces of this harness that still exist. */
  async remaining(): Promise<string[]> {
    return (await listNamespaces()).filter((name) => name.startsWith(`${this.id}-`));
  }

  /** Removes every namespace (their veths and bridges go with them) and the fixture tree. Idempotent. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    process.removeListener('exit', this.onExit);
    for (const name of [...this.namespaces].reverse()) await ip('netns', 'del', name).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last resort when the process exits without afterAll having run. */
  private destroySync(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const name of [...this.namespaces].reverse()) {
      try {
        execFileSync('ip', ['netns', 'del', name], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Builds a cluster, runs `body`, and tears the cluster down whether `body` passes or throws. */
export async function withCluster<T>(spec: HarnessSpec, body: (cluster: NetnsCluster) => Promise<T>): Promise<T> {
  const cluster = await NetnsCluster.create(spec);
  try {
    return await body(cluster);
  } finally {
    await cluster.destroy();
  }
}

import { readFileSync } from 'node:fs';
import type { NetInterface } from '../../src/host/types.js';
import type { FakeHostSpec } from './fake-host.js';
import { ascendFixture } from './fixtures.js';
import { npuHost } from './npu-host.js';

/** A launch script of the guides, byte for byte (../fixtures/launch). */
export function guideScript(name: string): string {
  return readFileSync(new URL(`../fixtures/launch/${name}`, import.meta.url), 'utf8');
}

/**
 * A guide's script with some lines changed: each [from, to] replaces the first occurrence.
 * Throws when `from` is not in the script, so a test cannot silently test the original.
 */
export function edited(text: string, changes: ReadonlyArray<readonly [string, string]>): string {
  let out = text;
  for (const [from, to] of changes) {
    if (!out.includes(from)) throw new Error(`not in the script: ${from}`);
    out = out.replace(from, to);
  }
  return out;
}

/** run_p.sh, run_d0.sh, run_d1.sh with the guide's placeholders filled for a node 10.0.0.11 on enp189s0f0. */
export function filledIn(name: 'run_p.sh' | 'run_d0.sh' | 'run_d1.sh', nodeIp = '10.0.0.11', masterIp = '10.0.0.11'): string {
  const changes: Array<[string, string]> = [
    ['nic_name="xxx"', 'nic_name="enp189s0f0"'],
    ['local_ip="xxx"', `local_ip="${nodeIp}"`],
  ];
  if (name !== 'run_p.sh') changes.push(['node0_ip="xxxx"', `node0_ip="${masterIp}"`]);
  return edited(guideScript(name), changes);
}

export function iface(name: string, address: string | null, options: Partial<NetInterface> = {}): NetInterface {
  return {
    name,
    adminUp: true,
    operState: 'up',
    running: true,
    mtu: 1500,
    mac: '02:00:00:00:00:01',
    loopback: false,
    addresses: address ? [{ family: 'IPv4', address, netmask: '255.255.255.0', prefix: 24 }] : [],
    ...options,
  };
}

export const LOOPBACK = iface('lo', '127.0.0.1', { loopback: true, operState: 'unknown' });
/** The node of the filled-in scripts: 10.0.0.11 on enp189s0f0, and a management interface. */
export const NODE_INTERFACES: NetInterface[] = [LOOPBACK, iface('enp189s0f0', '10.0.0.11'), iface('eno1', '192.168.1.11')];

/** The default route through enp189s0f0 (gateway 10.0.0.1), as /proc/net/route prints it. */
export const ROUTES =
  'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n' +
  'enp189s0f0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n' +
  'enp189s0f0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n';

export const TCP_HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';

/** A /proc/net/tcp line for a listener on 0.0.0.0:port. */
export function listener(port: number, inode: number, slot = 0): string {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return `   ${slot}: 00000000:${hex} 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 ${inode} 1 0000000000000000 100 0 0 10 0\n`;
}

/** An Atlas 800 A3 (16 dies) with the node interfaces and nothing listening: the guide's PD hosts. */
export function a3Node(extra: Partial<FakeHostSpec> = {}): FakeHostSpec {
  const base = npuHost({ info: ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'), devices: [...Array(16).keys()] });
  return {
    ...base,
    interfaces: NODE_INTERFACES,
    ...extra,
    files: { ...base.files, '/proc/net/tcp': TCP_HEADER, '/proc/net/tcp6': TCP_HEADER, '/proc/net/route': ROUTES, ...extra.files },
  };
}

/**
 * What the read probe measures on a local NVMe disk: 2 GB/s for 3 s with O_DIRECT, past the page
 * cache, for the weights under `directory` (the boundary the probe is asked about).
 */
export function nvmeRead(directory: string): NonNullable<FakeHostSpec['readProbes']> {
  const bytes = 6e9;
  return {
    [directory]: {
      method: 'direct',
      bytesRead: bytes,
      durationMs: 3000,
      stoppedBy: 'time',
      cachedBytesAtMost: 0,
      holeBytesAtLeast: 0,
      files: [],
      reads: [{ path: `${directory}/model-00001.safetensors`, offset: 0, bytes }],
      opens: [],
      fsMagic: 0x58465342,
    },
  };
}

export const IMAGE_PYTHON = '/usr/local/python3.11.13';
export const IMAGE_SITE = `${IMAGE_PYTHON}/lib/python3.11/site-packages`;

/** Core metadata as pip writes it (packaging.python.org, "Core metadata specifications"). */
export function coreMetadata(name: string, version: string): string {
  return `Metadata-Version: 2.4\nName: ${name}\nVersion: ${version}\nSummary: ${name}\n\n${name} ${version}\n`;
}

/**
 * The Python of an official vllm-ascend image (its Dockerfile): vllm and vllm-ascend installed
 * editable from /vllm-workspace (pip install -e: a dist-info with direct_url.json, PEP 610),
 * vllm_ascend/_build_info.py naming the device type it was built for, SOC_VERSION in the
 * environment, the interpreter first on PATH. `version` is vllm-ascend's, as `v0.20.2rc1`.
 */
export function imagePython(version: string, deviceType: 'A2' | 'A3' | '_310P' | 'A5', extra: Record<string, string> = {}): Pick<FakeHostSpec, 'files' | 'env'> {
  const ascend = version.replace(/^v/, '');
  // the SOC_VERSION default of each Dockerfile (Dockerfile, Dockerfile.a3, Dockerfile.310p, Dockerfile.a5)
  const soc = { A2: 'ascend910b1', A3: 'ascend910_9391', _310P: 'ascend310p1', A5: 'ascend950dt_9582' }[deviceType];
  const exe = (content: string) => ({ kind: 'file' as const, content, mode: 0o755 });
  return {
    env: { PATH: `${IMAGE_PYTHON}/bin:/usr/local/bin:/usr/bin:/bin`, HOME: '/root', SOC_VERSION: soc },
    files: {
      [`${IMAGE_PYTHON}/bin/vllm`]: exe(`#!${IMAGE_PYTHON}/bin/python3.11\n`),
      [`${IMAGE_PYTHON}/bin/python3.11`]: exe('ELF'),
      [`${IMAGE_SITE}/vllm_ascend-${ascend}.dist-info/METADATA`]: coreMetadata('vllm_ascend', ascend),
      [`${IMAGE_SITE}/vllm_ascend-${ascend}.dist-info/direct_url.json`]: '{"dir_info": {"editable": true}, "url": "file:///vllm-workspace/vllm-ascend"}',
      '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py': `# Auto-generated file\n__device_type__ = '${deviceType}'\n`,
      ...Object.fromEntries(Object.entries(extra).map(([name, v]) => [`${IMAGE_SITE}/${name.replace(/-/g, '_')}-${v}.dist-info/METADATA`, coreMetadata(name, v)])),
    },
  };
}

import { describe, expect, it } from 'vitest';
import { QprepError } from '../../../src/errors.js';
import { buildLaunchEnv } from '../../../src/app/launch-env.js';
import { profileSchema } from '../../../src/core/profile.js';
import { createContext } from '../../../src/core/runner.js';
import type { NetInterface } from '../../../src/host/types.js';
import { shellQuote } from '../../../src/util/shell.js';
import { FakeHost, type FakeHostSpec } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';

function iface(name: string, address: string | null, extra: Partial<NetInterface> = {}): NetInterface {
  return {
    name,
    adminUp: true,
    operState: 'up',
    running: true,
    mtu: 1500,
    mac: null,
    loopback: name === 'lo',
    addresses: address ? [{ family: 'IPv4', address, netmask: '255.255.255.0', prefix: 24 }] : [],
    ...extra,
  };
}

const ROUTES_VIA_BOND0 =
  'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n' +
  'bond0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n' +
  'bond0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n';

const NICS = [iface('lo', '127.0.0.1'), iface('bond0', '10.0.0.5'), iface('enp1s0', '192.168.8.5'), iface('docker0', '172.17.0.1')];

async function launchEnv(spec: FakeHostSpec, request: { ip?: string; nic?: string } = {}, profile: Record<string, unknown> = {}) {
  const host = new FakeHost({ interfaces: NICS, ...spec });
  return buildLaunchEnv(createContext({ host, profile: profileWith(profile), timeoutMs: 1000 }), request);
}

const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';

describe('qprep env: the node interface', () => {
  it('is the default-route interface, carrying HCCL_IF_IP and the three *_SOCKET_IFNAME', async () => {
    const env = await launchEnv({ files: { '/proc/net/route': ROUTES_VIA_BOND0 } });
    expect(env.node).toEqual({ ip: '10.0.0.5', nic: 'bond0', source: 'default-route' });
    expect(env.exports.filter((v) => v.source === 'network')).toEqual([
      { name: 'HCCL_IF_IP', value: '10.0.0.5', source: 'network' },
      { name: 'GLOO_SOCKET_IFNAME', value: 'bond0', source: 'network' },
      { name: 'TP_SOCKET_IFNAME', value: 'bond0', source: 'network' },
      { name: 'HCCL_SOCKET_IFNAME', value: 'bond0', source: 'network' },
    ]);
  });

  it('--ip picks the interface that carries the address; --nic its address', async () => {
    expect((await launchEnv({ files: { '/proc/net/route': ROUTES_VIA_BOND0 } }, { ip: '192.168.8.5' })).node).toEqual({ ip: '192.168.8.5', nic: 'enp1s0', source: '--ip' });
    expect((await launchEnv({}, { nic: 'enp1s0' })).node).toEqual({ ip: '192.168.8.5', nic: 'enp1s0', source: '--nic' });
    expect((await launchEnv({}, { ip: '127.0.0.1' })).node).toEqual({ ip: '127.0.0.1', nic: 'lo', source: '--ip' });
  });

  it('rejects an address that is not local, a mismatch of --ip and --nic, an interface that is down', async () => {
    const problems = [
      [{ ip: '10.9.9.9' }, '--ip: 10.9.9.9 is not an address of this host (its addresses: 10.0.0.5 (bond0), 192.168.8.5 (enp1s0), 172.17.0.1 (docker0))'],
      [{ ip: 'node1' }, '--ip: "node1" is not an IP address'],
      [{ ip: '10.0.0.5', nic: 'enp1s0' }, '10.0.0.5 is on bond0, not on --nic enp1s0: HCCL_IF_IP and the *_SOCKET_IFNAME variables must name one interface'],
      [{ nic: 'eth9' }, '--nic: no interface named eth9 (interfaces: lo, bond0, enp1s0, docker0)'],
    ] as const;
    for (const [request, message] of problems) {
      const error = await launchEnv({}, request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QprepError);
      expect((error as QprepError).message).toBe(message);
    }
    const down = await launchEnv({ interfaces: [iface('eth0', '10.1.1.1', { adminUp: false, operState: 'down' })] }, { nic: 'eth0' }).catch((e: unknown) => e);
    expect((down as QprepError).message).toBe('--nic: eth0 is down');
  });

  it('without a default route uses the only usable interface (not lo, not container bridges), else asks', async () => {
    const single = await launchEnv({ files: { '/proc/net/route': 'Iface\tDestination\n' }, interfaces: [iface('lo', '127.0.0.1'), iface('ens3', '10.2.0.7'), iface('docker0', '172.17.0.1')] });
    expect(single.node).toEqual({ ip: '10.2.0.7', nic: 'ens3', source: 'only-interface' });
    const error = await launchEnv({ files: {} }).catch((e: unknown) => e);
    expect((error as QprepError).message).toBe(
      'cannot read the routes (/proc/net/route: no such file or directory) and 2 candidate interfaces (bond0, enp1s0): pass --ip ADDRESS or --nic NAME (the interface that carries this node\'s cluster address)',
    );
  });
});

describe('qprep env: LD_PRELOAD, unset, the profile variables', () => {
  it('puts this host\'s jemalloc first and keeps the caller\'s preloads that exist', async () => {
    const env = await launchEnv({
      files: { '/proc/net/route': ROUTES_VIA_BOND0, [JEMALLOC]: 'ELF', '/opt/lib/libtrace.so': 'ELF' },
      env: { PATH: '/usr/bin', LD_PRELOAD: `/opt/lib/libtrace.so:/usr/lib/aarch64-linux-gnu/libjemalloc.so.2 ${JEMALLOC}` },
    });
    expect(env.exports[0]).toEqual({ name: 'LD_PRELOAD', value: `${JEMALLOC}:/opt/lib/libtrace.so`, source: 'jemalloc' });
    expect(env.notes).toEqual(['/usr/lib/aarch64-linux-gnu/libjemalloc.so.2 dropped from LD_PRELOAD: no such file on this host']);
  });

  it('leaves LD_PRELOAD alone, with a note, where jemalloc is not installed', async () => {
    const env = await launchEnv({ files: { '/proc/net/route': ROUTES_VIA_BOND0 } });
    expect(env.exports.some((v) => v.name === 'LD_PRELOAD')).toBe(false);
    expect(env.notes[0]).toMatch(/^libjemalloc\.so\.2 not found here \(searched \d+ places\): LD_PRELOAD is left as it is/);
  });

  it('exports the profile variables of the deployment guide and unsets the proxies', async () => {
    const env = await launchEnv({ files: { '/proc/net/route': ROUTES_VIA_BOND0 } });
    expect(env.exports.filter((v) => v.source === 'profile').map((v) => `${v.name}=${v.value}`)).toEqual([
      'PYTORCH_NPU_ALLOC_CONF=expandable_segments:True',
      'HCCL_OP_EXPANSION_MODE=AIV',
      'HCCL_BUFFSIZE=1024',
      'OMP_NUM_THREADS=1',
      'TASK_QUEUE_ENABLE=1',
    ]);
    expect(env.unset).toEqual(['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'FTP_PROXY', 'ALL_PROXY']);
  });

  it('a profile overrides values, drops a variable with null, and wins over a computed one (saying so)', async () => {
    const env = await launchEnv(
      { files: { '/proc/net/route': ROUTES_VIA_BOND0 } },
      {},
      { env: { variables: { HCCL_BUFFSIZE: 1536, OMP_NUM_THREADS: null, HCCL_SOCKET_IFNAME: '=bond0', VLLM_USE_V1: true }, unset: ['http_proxy'], preloadJemalloc: false } },
    );
    const byName = Object.fromEntries(env.exports.map((v) => [v.name, v.value]));
    expect(byName.HCCL_BUFFSIZE).toBe('1536');
    expect(byName.VLLM_USE_V1).toBe('true');
    expect(byName.HCCL_SOCKET_IFNAME).toBe('=bond0');
    expect('OMP_NUM_THREADS' in byName).toBe(false);
    expect(env.notes).toEqual(['HCCL_SOCKET_IFNAME comes from the profile (=bond0), not from this host (bond0)']);
    expect(env.unset).toEqual(['http_proxy']);
  });

  it('a profile cannot both set and unset a variable, nor name one the shell cannot', () => {
    expect(profileSchema.safeParse({ env: { variables: { http_proxy: 'x' }, unset: ['http_proxy'] } }).success).toBe(false);
    expect(profileSchema.safeParse({ env: { variables: { 'BAD-NAME': 'x' } } }).success).toBe(false);
    expect(profileSchema.safeParse({ env: { variables: { GOOD_NAME: 'x' }, unset: ['http_proxy'] } }).success).toBe(true);
  });
});

describe('shell quoting', () => {
  it('leaves plain words bare and single-quotes everything else', () => {
    expect(shellQuote('expandable_segments:True')).toBe('expandable_segments:True');
    expect(shellQuote('/usr/lib64/libjemalloc.so.2')).toBe('/usr/lib64/libjemalloc.so.2');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's $HOME")).toBe("'it'\\''s $HOME'");
    expect(shellQuote('a\nb')).toBe("'a\nb'");
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });
});

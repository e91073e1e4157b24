import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveInventory, rootInventory, type SystemInformationApi } from '../../../src/host/inventory.js';
import { LiveHost } from '../../../src/host/live.js';
import { RecordingHost, ReplayHost, snapshotSchema } from '../../../src/host/snapshot.js';
import { FakeHost } from '../../helpers/fake-host.js';

/** systeminformation's answers on a 2-CPU KVM guest running Debian 12 in a container (see the fixture's README). */
const recorded = JSON.parse(readFileSync(new URL('../../fixtures/systeminformation/kvm-debian12-x86_64.json', import.meta.url), 'utf8')) as Record<
  keyof SystemInformationApi,
  unknown
>;

function recordedLibrary(overrides: Partial<Record<keyof SystemInformationApi, () => Promise<unknown>>> = {}): SystemInformationApi {
  const answer = (name: keyof SystemInformationApi) => overrides[name] ?? (() => Promise.resolve(structuredClone(recorded[name])));
  return {
    system: answer('system'),
    bios: answer('bios'),
    cpu: answer('cpu'),
    mem: answer('mem'),
    osInfo: answer('osInfo'),
    networkInterfaces: answer('networkInterfaces'),
  } as SystemInformationApi;
}

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the live inventory (systeminformation)', () => {
  it('maps the recorded answers: CPUs, memory, OS, NICs; the synthetic model "Docker Container" is not a DMI model', async () => {
    const files = new FakeHost({ files: { '/sys/devices/system/node/node0/cpulist': '0-1\n' } });
    const inventory = await liveInventory({ files, timeoutMs: 1000, load: async () => recordedLibrary() });
    expect(inventory.source).toBe('systeminformation');
    expect(inventory.system).toEqual({ manufacturer: null, model: null, serial: null, virtual: true });
    expect(inventory.cpu).toEqual({ brand: 'Intel Xeon® Processor', sockets: 1, cores: 2, threads: 2, numaNodes: 1 });
    expect(inventory.memoryBytes).toBe(25276071936);
    expect(inventory.os).toEqual({ distro: 'Debian GNU/Linux', release: '12' });
    // speed -1 (no link speed) and duplex "unknown" are unknown, not numbers
    expect(inventory.nics?.find((n) => n.name === 'eth0')).toEqual({
      name: 'eth0',
      mac: '02:fc:00:00:00:01',
      ipv4: '192.0.2.2',
      mtu: 1400,
      speedMbps: null,
      duplex: null,
      state: 'up',
      virtual: false,
    });
    expect(inventory.unknown.map((u) => u.field)).toContain('system.model');
  });

  it('reads the DMI strings from sysfs before the library, and NICs without an address from /sys/class/net', async () => {
    const files = new FakeHost({
      files: {
        '/sys/class/dmi/id/sys_vendor': 'Huawei\n',
        '/sys/class/dmi/id/product_name': 'A800I A2\n',
        '/sys/class/dmi/id/bios_vendor': 'To be filled by O.E.M.\n',
        '/sys/class/net/enp189s0f0/mtu': '9000\n',
        '/sys/class/net/enp189s0f0/operstate': 'up\n',
        '/sys/class/net/enp189s0f0/speed': '100000\n',
        '/sys/class/net/enp189s0f0/duplex': 'full\n',
        '/sys/class/net/enp189s0f0/address': 'b4:15:7e:00:00:01\n',
        '/sys/class/net/enp189s0f0/device/vendor': '0x19e5\n',
      },
    });
    const inventory = await liveInventory({ files, timeoutMs: 1000, load: async () => recordedLibrary() });
    expect(inventory.system.manufacturer).toBe('Huawei');
    expect(inventory.system.model).toBe('A800I A2');
    expect(inventory.bios.vendor).toBeNull();
    expect(inventory.unknown.find((u) => u.field === 'bios.vendor')?.reason).toContain('placeholder');
    expect(inventory.nics?.find((n) => n.name === 'enp189s0f0')).toEqual({
      name: 'enp189s0f0',
      mac: 'b4:15:7e:00:00:01',
      ipv4: null,
      mtu: 9000,
      speedMbps: 100000,
      duplex: 'full',
      state: 'up',
      virtual: false,
    });
  });

  it('a library call that hangs or throws makes its fields unknown, and the inventory still answers', async () => {
    const library = recordedLibrary({
      cpu: () => new Promise(() => undefined),
      networkInterfaces: () => new Promise(() => undefined),
      mem: () => Promise.reject(new Error('ENOMEM reading /proc/meminfo')),
      osInfo: () => {
        throw new Error('synchronous failure');
      },
    });
    const files = new FakeHost({ files: { '/sys/class/net/eth0/mtu': '1500\n', '/sys/class/net/eth0/operstate': 'up\n' } });
    const inventory = await liveInventory({ files, timeoutMs: 150, load: async () => library });
    expect(inventory.cpu.threads).toBeNull();
    expect(inventory.unknown).toContainEqual({ field: 'cpu', reason: 'systeminformation cpu() gave no answer within 150 ms' });
    expect(inventory.memoryBytes).toBeNull();
    expect(inventory.unknown).toContainEqual({ field: 'memoryBytes', reason: 'systeminformation mem() failed: ENOMEM reading /proc/meminfo' });
    expect(inventory.unknown).toContainEqual({ field: 'os', reason: 'systeminformation osInfo() failed: synchronous failure' });
    // the NICs fall back to sysfs
    expect(inventory.nics?.map((n) => [n.name, n.mtu, n.state])).toEqual([['eth0', 1500, 'up']]);
    // the answers that came are kept
    expect(inventory.system.virtual).toBe(true);
  });

  it('a library that cannot be loaded leaves the library fields unknown with the reason', async () => {
    const inventory = await liveInventory({ files: new FakeHost(), timeoutMs: 1000, load: () => Promise.reject(new Error("Cannot find package 'systeminformation'")) });
    expect(inventory.cpu.threads).toBeNull();
    expect(inventory.unknown.find((u) => u.field === 'cpu')?.reason).toBe("systeminformation could not be loaded: Cannot find package 'systeminformation'");
  });

  it('LiveHost bounds the real library call by its timeout: an injected hang in system() does not hang inventory()', async () => {
    const host = new LiveHost({ timeoutMs: 200, systemInformation: async () => recordedLibrary({ system: () => new Promise(() => undefined) }) });
    const inventory = await host.inventory();
    expect(inventory.unknown.some((u) => u.field === 'system.model' && u.reason.endsWith('systeminformation system() gave no answer within 200 ms'))).toBe(true);
    expect(inventory.cpu.threads).toBe(2);
  });
});

describe('the inventory under --root', () => {
  function hostTree(): string {
    const root = mkdtempSync(join(tmpdir(), 'qprep-inventory-root-'));
    temporary.push(root);
    const put = (path: string, content: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), content);
    };
    put('sys/class/dmi/id/sys_vendor', 'Huawei\n');
    put('sys/class/dmi/id/product_name', 'A800 9000 A2\n');
    put('sys/class/dmi/id/bios_version', '1.21\n');
    put('sys/class/net/enp61s0f0/mtu', '9000\n');
    put('sys/class/net/enp61s0f0/operstate', 'up\n');
    put('sys/class/net/enp61s0f0/speed', '25000\n');
    put('sys/class/net/enp61s0f0/duplex', 'full\n');
    put('sys/class/net/enp61s0f0/device/vendor', '0x19e5\n');
    put('sys/class/net/docker0/mtu', '1500\n');
    put('sys/class/net/docker0/operstate', 'down\n');
    put('sys/devices/system/cpu/online', '0-3\n');
    for (let cpu = 0; cpu < 4; cpu++) {
      put(`sys/devices/system/cpu/cpu${cpu}/topology/physical_package_id`, `${cpu < 2 ? 0 : 1}\n`);
      put(`sys/devices/system/cpu/cpu${cpu}/topology/core_id`, `${cpu % 2}\n`);
    }
    put('sys/devices/system/node/node0/cpulist', '0-1\n');
    put('sys/devices/system/node/node1/cpulist', '2-3\n');
    put('proc/meminfo', 'MemTotal:       1598741504 kB\nMemFree:         1000 kB\n');
    put('etc/os-release', 'NAME="openEuler"\nVERSION_ID="22.03"\n');
    return root;
  }

  it('reads DMI, CPUs, memory and NICs from the files under the root and never calls systeminformation', async () => {
    const root = hostTree();
    const host = new LiveHost({
      root,
      timeoutMs: 2000,
      systemInformation: () => Promise.reject(new Error('systeminformation must not be called under --root')),
    });
    const inventory = await host.inventory();
    expect(inventory.source).toBe('root-files');
    expect(inventory.system.manufacturer).toBe('Huawei');
    expect(inventory.system.model).toBe('A800 9000 A2');
    expect(inventory.bios.version).toBe('1.21');
    expect(inventory.cpu).toEqual({ brand: null, sockets: 2, cores: 4, threads: 4, numaNodes: 2 });
    expect(inventory.memoryBytes).toBe(1598741504 * 1024);
    expect(inventory.os).toEqual({ distro: 'openEuler', release: '22.03' });
    // the root's interfaces, not this process's (whose eth0/lo are not in the tree)
    expect(inventory.nics?.map((n) => n.name)).toEqual(['docker0', 'enp61s0f0']);
    expect(inventory.nics?.find((n) => n.name === 'enp61s0f0')).toMatchObject({ mtu: 9000, speedMbps: 25000, duplex: 'full', state: 'up', virtual: false, ipv4: null });
    expect(inventory.nics?.find((n) => n.name === 'docker0')?.virtual).toBe(true);
    expect(inventory.unknown.some((u) => u.reason.includes('systeminformation'))).toBe(false);
  });

  it('says unknown where the root has no files, never the values of the machine qprep runs on', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-inventory-empty-'));
    temporary.push(root);
    const inventory = await new LiveHost({ root, timeoutMs: 2000 }).inventory();
    expect(inventory.nics).toBeNull();
    expect(inventory.cpu.threads).toBeNull();
    expect(inventory.memoryBytes).toBeNull();
    expect(inventory.system.model).toBeNull();
    expect(inventory.unknown.map((u) => u.field)).toEqual(
      expect.arrayContaining(['system.model', 'cpu.threads', 'cpu.numaNodes', 'memoryBytes', 'os', 'nics']),
    );
  });

  it('rootInventory over a fake host reads the same paths', async () => {
    const inventory = await rootInventory(new FakeHost({ files: { '/sys/class/dmi/id/product_name': 'A800I A2\n' } }));
    expect(inventory.system.model).toBe('A800I A2');
  });
});

describe('record and replay', () => {
  it('a snapshot replays the live inventory byte for byte, and the recording run sees the same answer twice', async () => {
    const recorder = new RecordingHost(new LiveHost({ timeoutMs: 5000 }));
    const first = await recorder.inventory();
    const second = await recorder.inventory();
    expect(second).toBe(first);
    const document = JSON.parse(JSON.stringify(await recorder.toSnapshot({ name: 'qprep', version: '0.0.0' })));
    const replay = new ReplayHost(snapshotSchema.parse(document), 'test.json');
    expect(JSON.stringify(await replay.inventory())).toBe(JSON.stringify(first));
  });

  it('a snapshot without an inventory replays every field as unknown, not as this machine', async () => {
    const recorder = new RecordingHost(new FakeHost());
    const document = JSON.parse(JSON.stringify(await recorder.toSnapshot({ name: 'qprep', version: '0.0.0' })));
    expect(document.inventory).toBeUndefined();
    const inventory = await new ReplayHost(snapshotSchema.parse(document), 'old.json').inventory();
    expect(inventory.source).toBe('none');
    expect(inventory.nics).toBeNull();
    expect(inventory.unknown).toEqual([{ field: 'inventory', reason: 'not captured in the snapshot' }]);
  });
});

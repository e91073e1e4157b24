import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveInventory, rootInventory } from '../../../src/host/inventory.js';
import { LIBRARY_CALLS, pickFields, type Answer, type LibraryAnswers, type LibraryCall, type LibraryFields } from '../../../src/host/inventory-process.js';
import { LiveHost } from '../../../src/host/live.js';
import { RecordingHost, ReplayHost, snapshotSchema } from '../../../src/host/snapshot.js';
import { probeOk, type NetInterface } from '../../../src/host/types.js';
import { FakeHost } from '../../helpers/fake-host.js';

/** systeminformation's answers on a 2-CPU KVM guest running Debian 12 in a container (see the fixture's README). */
const recorded = JSON.parse(readFileSync(new URL('../../fixtures/systeminformation/kvm-debian12-x86_64.json', import.meta.url), 'utf8')) as Record<LibraryCall, unknown>;

/** The recorded answers as the inventory process sends them back; `overrides` replace some. */
function recordedAnswers(overrides: Partial<Record<LibraryCall, Answer<LibraryFields>>> = {}): () => Promise<LibraryAnswers> {
  const answers = Object.fromEntries(LIBRARY_CALLS.map((call) => [call, overrides[call] ?? { ok: true, value: pickFields(call, recorded[call]) }])) as Record<LibraryCall, Answer<LibraryFields>>;
  return () => Promise.resolve(answers);
}

/** The guest's eth0 as Host.interfaces gives it. */
const GUEST_INTERFACES: NetInterface[] = [
  { name: 'eth0', adminUp: true, operState: 'up', running: true, mtu: 1400, mac: '02:fc:00:00:00:01', loopback: false, addresses: [{ family: 'IPv4', address: '192.0.2.2', netmask: '255.255.255.0', prefix: 24 }] },
  { name: 'lo', adminUp: true, operState: 'unknown', running: true, mtu: 65536, mac: '00:00:00:00:00:00', loopback: true, addresses: [{ family: 'IPv4', address: '127.0.0.1', netmask: '255.0.0.0', prefix: 8 }] },
];

/** The guest's /sys/class/net: eth0 is a virtio NIC (a device link), lo a software interface. */
const GUEST_SYSFS: Record<string, string> = {
  '/sys/class/net/eth0/mtu': '1400\n',
  '/sys/class/net/eth0/operstate': 'up\n',
  '/sys/class/net/eth0/address': '02:fc:00:00:00:01\n',
  '/sys/class/net/eth0/speed': '-1\n',
  '/sys/class/net/eth0/duplex': 'unknown\n',
  '/sys/class/net/eth0/device/vendor': '0x1af4\n',
  '/sys/class/net/lo/mtu': '65536\n',
  '/sys/class/net/lo/operstate': 'unknown\n',
  '/sys/class/net/lo/address': '00:00:00:00:00:00\n',
};

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the live inventory (systeminformation in its own process)', () => {
  it('maps the recorded answers: CPUs, memory, OS; the synthetic model "Docker Container" is not a DMI model', async () => {
    const files = new FakeHost({ files: { '/sys/devices/system/node/node0/cpulist': '0-1\n', ...GUEST_SYSFS } });
    const inventory = await liveInventory({ files, interfaces: () => Promise.resolve(probeOk(GUEST_INTERFACES)), library: recordedAnswers() });
    expect(inventory.source).toBe('systeminformation');
    expect(inventory.system).toEqual({ manufacturer: null, model: null, serial: null, virtual: true });
    expect(inventory.cpu).toEqual({ brand: 'Intel Xeon® Processor', sockets: 1, cores: 2, threads: 2, numaNodes: 1 });
    expect(inventory.memoryBytes).toBe(25276071936);
    expect(inventory.os).toEqual({ distro: 'Debian GNU/Linux', release: '12' });
    expect(inventory.unknown.map((u) => u.field)).toContain('system.model');
  });

  it('the NICs come from /sys/class/net and their IPv4 from the interfaces: speed -1 and duplex "unknown" are unknown, lo is virtual', async () => {
    const files = new FakeHost({ files: GUEST_SYSFS });
    const inventory = await liveInventory({ files, interfaces: () => Promise.resolve(probeOk(GUEST_INTERFACES)), library: recordedAnswers() });
    expect(inventory.nics).toEqual([
      { name: 'eth0', mac: '02:fc:00:00:00:01', ipv4: '192.0.2.2', mtu: 1400, speedMbps: null, duplex: null, state: 'up', virtual: false },
      { name: 'lo', mac: '00:00:00:00:00:00', ipv4: '127.0.0.1', mtu: 65536, speedMbps: null, duplex: null, state: 'unknown', virtual: true },
    ]);
  });

  it('reads the DMI strings from sysfs before the library', async () => {
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
    const inventory = await liveInventory({ files, interfaces: () => Promise.resolve(probeOk([])), library: recordedAnswers() });
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

  it('a call without an answer makes its fields unknown with its reason; the answers that came are kept', async () => {
    const library = recordedAnswers({
      cpu: { ok: false, reason: 'systeminformation cpu() gave no answer within 150 ms: the inventory process was killed with the helpers it ran' },
      mem: { ok: false, reason: 'systeminformation mem() failed: ENOMEM reading /proc/meminfo' },
    });
    const files = new FakeHost({ files: { '/sys/class/net/eth0/mtu': '1500\n', '/sys/class/net/eth0/operstate': 'up\n' } });
    const inventory = await liveInventory({ files, interfaces: () => Promise.resolve(probeOk([])), library });
    expect(inventory.cpu.threads).toBeNull();
    expect(inventory.unknown).toContainEqual({ field: 'cpu', reason: 'systeminformation cpu() gave no answer within 150 ms: the inventory process was killed with the helpers it ran' });
    expect(inventory.memoryBytes).toBeNull();
    expect(inventory.unknown).toContainEqual({ field: 'memoryBytes', reason: 'systeminformation mem() failed: ENOMEM reading /proc/meminfo' });
    expect(inventory.nics?.map((n) => [n.name, n.mtu, n.state])).toEqual([['eth0', 1500, 'up']]);
    expect(inventory.system.virtual).toBe(true);
  });

  it('without /sys/class/net the NICs come from the interfaces, saying what is missing', async () => {
    const inventory = await liveInventory({ files: new FakeHost(), interfaces: () => Promise.resolve(probeOk(GUEST_INTERFACES)), library: recordedAnswers() });
    expect(inventory.nics?.map((n) => [n.name, n.ipv4, n.mtu, n.speedMbps, n.virtual])).toEqual([
      ['eth0', '192.0.2.2', 1400, null, null],
      ['lo', '127.0.0.1', 65536, null, true],
    ]);
    expect(inventory.unknown.find((u) => u.field === 'nics')?.reason).toMatch(/^\/sys\/class\/net: no such file; speed and duplex unknown/);
  });

  it('a LiveHost that cannot start its inventory process says so for every library field', async () => {
    // the tests run inside vitest, not as the qprep command: main() never said how to start qprep again
    const inventory = await new LiveHost({ timeoutMs: 1000 }).inventory();
    expect(inventory.unknown.find((u) => u.field === 'cpu')?.reason).toBe('systeminformation is not asked: this qprep was not started as a command, so it cannot start its inventory process');
    // what the host's files say is still there
    expect(inventory.nics?.length).toBeGreaterThan(0);
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
    // an inventory process that is not there: under --root none may be started
    const host = new LiveHost({ root, timeoutMs: 2000, inventoryProcess: [join(root, 'no-such-inventory-process')] });
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

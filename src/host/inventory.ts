import { parseCpuList } from '../parsers/cpulist.js';
import { parseMeminfo } from '../parsers/meminfo.js';
import { parseOsRelease } from '../parsers/os-release.js';
import type { Answer, LibraryAnswers, LibraryFields } from './inventory-process.js';
import type { DirEntry, FileStat, HostInventory, InventoryNic, NetInterface, Probe } from './types.js';

/**
 * The reads the inventory makes of files: the host's own readFile/readDir/lstat, so that under
 * --root they go under the root, confined to it, and bounded by the probe timeout.
 */
export interface InventoryFiles {
  readFile(path: string): Promise<Probe<string>>;
  readDir(path: string): Promise<Probe<DirEntry[]>>;
  lstat(path: string): Promise<Probe<FileStat>>;
}

const DMI = '/sys/class/dmi/id';
const NET = '/sys/class/net';

/**
 * Values firmware writes where it has nothing to say, and the names systeminformation puts in
 * place of a model it could not read ("Docker Container" replaces even a real DMI model when
 * /.dockerenv exists, which is why the DMI strings are read from sysfs first).
 */
const PLACEHOLDERS = new Set([
  '',
  '-',
  'none',
  'n/a',
  'na',
  'default',
  'default string',
  'not specified',
  'not applicable',
  'not available',
  'to be filled by o.e.m.',
  'system manufacturer',
  'system product name',
  'computer',
  'docker container',
  'virtual machine',
  'unknown',
]);

export function meaningful(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (PLACEHOLDERS.has(trimmed.toLowerCase()) || /^0+$/.test(trimmed) || /o\.e\.m\./i.test(trimmed)) return null;
  return trimmed;
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function emptyInventory(source: HostInventory['source']): HostInventory {
  return {
    source,
    system: { manufacturer: null, model: null, serial: null, virtual: null },
    bios: { vendor: null, version: null },
    cpu: { brand: null, sockets: null, cores: null, threads: null, numaNodes: null },
    memoryBytes: null,
    os: { distro: null, release: null },
    nics: null,
    unknown: [],
  };
}

/** An inventory with every field unknown for one reason (a snapshot that did not capture it). */
export function unknownInventory(reason: string): HostInventory {
  const inventory = emptyInventory('none');
  inventory.unknown.push({ field: 'inventory', reason });
  return inventory;
}

function failedRead(path: string, probe: { code: string; message: string }): string {
  const why = probe.code === 'ENOENT' ? 'no such file' : probe.code === 'EACCES' || probe.code === 'EPERM' ? 'permission denied' : probe.code === 'ENOTCAPTURED' ? 'not captured in the snapshot' : probe.message;
  return `${path}: ${why}`;
}

async function readText(files: InventoryFiles, path: string): Promise<Answer<string>> {
  const read = await files.readFile(path);
  return read.ok ? { ok: true, value: read.value.trim() } : { ok: false, reason: failedRead(path, read) };
}

interface DmiStrings {
  manufacturer: Answer<string>;
  model: Answer<string>;
  serial: Answer<string>;
  biosVendor: Answer<string>;
  biosVersion: Answer<string>;
}

function readDmi(files: InventoryFiles): Promise<DmiStrings> {
  const field = (name: string) => readText(files, `${DMI}/${name}`);
  return Promise.all([field('sys_vendor'), field('product_name'), field('product_serial'), field('bios_vendor'), field('bios_version')]).then(
    ([manufacturer, model, serial, biosVendor, biosVersion]) => ({ manufacturer, model, serial, biosVendor, biosVersion }),
  );
}

/**
 * A DMI string from sysfs, else from the library, else unknown with the reasons of both. A
 * placeholder ("To be filled by O.E.M.") counts as unknown.
 */
function pick(inventory: HostInventory, field: string, fromFile: Answer<string>, fromLibrary?: Answer<string | undefined>): string | null {
  const file = fromFile.ok ? meaningful(fromFile.value) : null;
  if (file !== null) return file;
  const library = fromLibrary?.ok ? meaningful(fromLibrary.value) : null;
  if (library !== null) return library;
  const reasons = [fromFile.ok ? `${DMI}: "${fromFile.value}" is a placeholder` : fromFile.reason];
  if (fromLibrary) reasons.push(fromLibrary.ok ? 'systeminformation has no value' : fromLibrary.reason);
  inventory.unknown.push({ field, reason: reasons.join('; ') });
  return null;
}

async function countNumaNodes(files: InventoryFiles): Promise<Answer<number>> {
  const listed = await files.readDir('/sys/devices/system/node');
  if (!listed.ok) return { ok: false, reason: failedRead('/sys/devices/system/node', listed) };
  const nodes = listed.value.filter((entry) => /^node\d+$/.test(entry.name)).length;
  return nodes > 0 ? { ok: true, value: nodes } : { ok: false, reason: '/sys/devices/system/node lists no node' };
}

function numberFrom(text: Answer<string>): number | null {
  return text.ok && /^-?\d+$/.test(text.value) ? Number(text.value) : null;
}

/** One interface from /sys/class/net/NAME: what the kernel says, nothing else. */
export async function readSysfsNic(files: InventoryFiles, name: string): Promise<InventoryNic> {
  const at = (attribute: string) => readText(files, `${NET}/${name}/${attribute}`);
  const [mtu, operstate, speed, duplex, address, device] = await Promise.all([
    at('mtu'),
    at('operstate'),
    at('speed'),
    at('duplex'),
    at('address'),
    files.lstat(`${NET}/${name}/device`),
  ]);
  const speedValue = numberFrom(speed);
  const duplexValue = duplex.ok && (duplex.value === 'full' || duplex.value === 'half') ? duplex.value : null;
  return {
    name,
    mac: address.ok && address.value !== '' ? address.value : null,
    ipv4: null,
    mtu: numberFrom(mtu),
    // the kernel answers -1 (or EINVAL) for a link without a speed
    speedMbps: speedValue !== null && speedValue > 0 ? speedValue : null,
    duplex: duplexValue,
    state: operstate.ok && operstate.value !== '' ? operstate.value : 'unknown',
    // a NIC has a device link to its bus; software interfaces live under /sys/devices/virtual
    virtual: device.ok ? false : device.code === 'ENOENT' ? true : null,
  };
}

async function listSysfsNics(files: InventoryFiles): Promise<Answer<string[]>> {
  const listed = await files.readDir(NET);
  if (!listed.ok) return { ok: false, reason: failedRead(NET, listed) };
  return { ok: true, value: listed.value.map((entry) => entry.name).filter((name) => !name.includes('/')) };
}

function byName(a: InventoryNic, b: InventoryNic): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export interface LiveInventoryOptions {
  files: InventoryFiles;
  /** the interfaces of qprep's network namespace with their addresses (Host.interfaces) */
  interfaces: () => Promise<Probe<NetInterface[]>>;
  /** what systeminformation answered, from the inventory process (inventory-process.ts) */
  library: () => Promise<LibraryAnswers>;
}

function text(fields: LibraryFields, key: string): string | undefined {
  const value = fields[key];
  return typeof value === 'string' ? value : undefined;
}

/** An interface the sysfs listing did not give, as the interfaces probe has it (no speed or duplex there). */
function nicFromInterface(iface: NetInterface): InventoryNic {
  return { name: iface.name, mac: iface.mac, ipv4: null, mtu: iface.mtu, speedMbps: null, duplex: null, state: iface.operState, virtual: iface.loopback ? true : null };
}

/**
 * The NICs, from /sys/class/net through the host's reads, with their first IPv4 address from
 * the interfaces probe. Not from systeminformation's networkInterfaces(): for every interface it
 * runs a shell, `nmcli connection show` three times and more, with execSync, to learn DHCP and
 * 802.1X settings the inventory does not report. On a Kubernetes node with 110 pod veths and an
 * nmcli answering in 80 ms that is over 3,000 processes and seconds of a blocked process, for
 * the MTU, state, speed and duplex the kernel gives in sysfs anyway; and "virtual" is told
 * exactly by sysfs (a software interface has no device link) where the library guesses from MAC
 * vendors and names.
 */
async function readNics(inventory: HostInventory, files: InventoryFiles, interfaces: () => Promise<Probe<NetInterface[]>>): Promise<InventoryNic[] | null> {
  const [names, addresses] = await Promise.all([listSysfsNics(files), interfaces()]);
  const ipv4 = new Map<string, string>();
  if (addresses.ok) {
    for (const iface of addresses.value) {
      const first = iface.addresses.find((address) => address.family === 'IPv4');
      if (first) ipv4.set(iface.name, first.address);
    }
  } else inventory.unknown.push({ field: 'nics.ipv4', reason: `the interfaces' addresses cannot be read: ${addresses.message}` });
  let nics: InventoryNic[];
  if (names.ok) nics = await Promise.all(names.value.map((name) => readSysfsNic(files, name)));
  else if (addresses.ok) {
    inventory.unknown.push({ field: 'nics', reason: `${names.reason}; speed and duplex unknown, the rest from the interfaces of this network namespace` });
    nics = addresses.value.map(nicFromInterface);
  } else {
    inventory.unknown.push({ field: 'nics', reason: names.reason });
    return null;
  }
  return nics.map((nic) => ({ ...nic, ipv4: ipv4.get(nic.name) ?? null })).sort(byName);
}

/**
 * The running system: CPUs, memory and OS from systeminformation (asked in a process of its own,
 * bounded by the inventory's budget: `library`); DMI strings, NUMA nodes and NICs from sysfs
 * through the host's reads. The library's DMI strings stand in where sysfs has none.
 */
export async function liveInventory(options: LiveInventoryOptions): Promise<HostInventory> {
  const inventory = emptyInventory('systeminformation');
  const { files } = options;
  const [dmi, library, numa, nics] = await Promise.all([readDmi(files), options.library(), countNumaNodes(files), readNics(inventory, files, options.interfaces)]);
  const { system, bios, cpu, mem, osInfo: os } = library;

  const systemValue = (key: 'manufacturer' | 'model' | 'serial'): Answer<string | undefined> => (system.ok ? { ok: true, value: text(system.value, key) } : system);
  const biosValue = (key: 'vendor' | 'version'): Answer<string | undefined> => (bios.ok ? { ok: true, value: text(bios.value, key) } : bios);
  inventory.system.manufacturer = pick(inventory, 'system.manufacturer', dmi.manufacturer, systemValue('manufacturer'));
  inventory.system.model = pick(inventory, 'system.model', dmi.model, systemValue('model'));
  inventory.system.serial = pick(inventory, 'system.serial', dmi.serial, systemValue('serial'));
  inventory.system.virtual = system.ok && typeof system.value.virtual === 'boolean' ? system.value.virtual : null;
  if (!system.ok) inventory.unknown.push({ field: 'system.virtual', reason: system.reason });
  inventory.bios.vendor = pick(inventory, 'bios.vendor', dmi.biosVendor, biosValue('vendor'));
  inventory.bios.version = pick(inventory, 'bios.version', dmi.biosVersion, biosValue('version'));

  if (cpu.ok) {
    inventory.cpu.brand = [meaningful(cpu.value.manufacturer), meaningful(cpu.value.brand)].filter(Boolean).join(' ') || null;
    inventory.cpu.sockets = positive(cpu.value.processors);
    inventory.cpu.cores = positive(cpu.value.physicalCores);
    inventory.cpu.threads = positive(cpu.value.cores);
  } else inventory.unknown.push({ field: 'cpu', reason: cpu.reason });
  if (numa.ok) inventory.cpu.numaNodes = numa.value;
  else inventory.unknown.push({ field: 'cpu.numaNodes', reason: numa.reason });

  const total = mem.ok ? positive(mem.value.total) : null;
  if (total !== null) inventory.memoryBytes = total;
  else inventory.unknown.push({ field: 'memoryBytes', reason: mem.ok ? 'systeminformation mem() has no total' : mem.reason });

  if (os.ok) {
    inventory.os.distro = meaningful(os.value.distro);
    inventory.os.release = meaningful(os.value.release);
  } else inventory.unknown.push({ field: 'os', reason: os.reason });

  inventory.nics = nics;
  return inventory;
}

/**
 * Under --root: only the files of the root. systeminformation reads the live /proc and /sys of
 * the machine qprep runs on, which in a container are the container's, so it is not called;
 * what the files do not hold (IPv4 addresses, virtualization) is unknown.
 */
export async function rootInventory(files: InventoryFiles): Promise<HostInventory> {
  const inventory = emptyInventory('root-files');
  const [dmi, numa, sysfsNames, online, meminfo, cpuinfo, osRelease] = await Promise.all([
    readDmi(files),
    countNumaNodes(files),
    listSysfsNics(files),
    readText(files, '/sys/devices/system/cpu/online'),
    readText(files, '/proc/meminfo'),
    readText(files, '/proc/cpuinfo'),
    readText(files, '/etc/os-release'),
  ]);
  inventory.system.manufacturer = pick(inventory, 'system.manufacturer', dmi.manufacturer);
  inventory.system.model = pick(inventory, 'system.model', dmi.model);
  inventory.system.serial = pick(inventory, 'system.serial', dmi.serial);
  inventory.bios.vendor = pick(inventory, 'bios.vendor', dmi.biosVendor);
  inventory.bios.version = pick(inventory, 'bios.version', dmi.biosVersion);
  inventory.unknown.push({ field: 'system.virtual', reason: 'not told by the files of a root' });

  const cpus = online.ok ? parseCpuList(online.value) : undefined;
  if (cpus && cpus.length > 0) {
    inventory.cpu.threads = cpus.length;
    const topology = await Promise.all(
      cpus.map(async (cpu) => {
        const base = `/sys/devices/system/cpu/cpu${cpu}/topology`;
        const [pkg, core] = await Promise.all([readText(files, `${base}/physical_package_id`), readText(files, `${base}/core_id`)]);
        return { pkg: numberFrom(pkg), core: numberFrom(core) };
      }),
    );
    if (topology.every((t) => t.pkg !== null && t.core !== null)) {
      inventory.cpu.sockets = new Set(topology.map((t) => t.pkg)).size;
      inventory.cpu.cores = new Set(topology.map((t) => `${t.pkg}:${t.core}`)).size;
    } else inventory.unknown.push({ field: 'cpu.sockets', reason: '/sys/devices/system/cpu/cpu*/topology cannot be read' });
  } else inventory.unknown.push({ field: 'cpu.threads', reason: online.ok ? '/sys/devices/system/cpu/online is not a CPU list' : online.reason });
  const modelName = cpuinfo.ok ? /^model name\s*:\s*(.+)$/m.exec(cpuinfo.value)?.[1] : undefined;
  inventory.cpu.brand = meaningful(modelName);
  if (inventory.cpu.brand === null) inventory.unknown.push({ field: 'cpu.brand', reason: cpuinfo.ok ? '/proc/cpuinfo has no model name line' : cpuinfo.reason });
  if (numa.ok) inventory.cpu.numaNodes = numa.value;
  else inventory.unknown.push({ field: 'cpu.numaNodes', reason: numa.reason });

  const total = meminfo.ok ? parseMeminfo(meminfo.value).get('MemTotal') : undefined;
  if (total !== undefined && total > 0) inventory.memoryBytes = total;
  else inventory.unknown.push({ field: 'memoryBytes', reason: meminfo.ok ? '/proc/meminfo has no MemTotal' : meminfo.reason });

  if (osRelease.ok) {
    const parsed = parseOsRelease(osRelease.value);
    inventory.os.distro = meaningful(parsed.name);
    inventory.os.release = meaningful(parsed.versionId);
  } else inventory.unknown.push({ field: 'os', reason: osRelease.reason });

  if (sysfsNames.ok) inventory.nics = (await Promise.all(sysfsNames.value.map((name) => readSysfsNic(files, name)))).sort(byName);
  else inventory.unknown.push({ field: 'nics', reason: sysfsNames.reason });
  return inventory;
}

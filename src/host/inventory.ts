import { parseCpuList } from '../parsers/cpulist.js';
import { parseMeminfo } from '../parsers/meminfo.js';
import { parseOsRelease } from '../parsers/os-release.js';
import { withTimeout } from '../util/timeout.js';
import type { DirEntry, FileStat, HostInventory, InventoryNic, Probe } from './types.js';

/**
 * The reads the inventory makes of files: the host's own readFile/readDir/lstat, so that under
 * --root they go under the root, confined to it, and bounded by the probe timeout.
 */
export interface InventoryFiles {
  readFile(path: string): Promise<Probe<string>>;
  readDir(path: string): Promise<Probe<DirEntry[]>>;
  lstat(path: string): Promise<Probe<FileStat>>;
}

/** The part of systeminformation the inventory calls; a test injects its own. */
export interface SystemInformationApi {
  system(): Promise<{ manufacturer?: string; model?: string; serial?: string; virtual?: boolean }>;
  bios(): Promise<{ vendor?: string; version?: string }>;
  cpu(): Promise<{ manufacturer?: string; brand?: string; cores?: number; physicalCores?: number; processors?: number }>;
  mem(): Promise<{ total?: number }>;
  osInfo(): Promise<{ distro?: string; release?: string }>;
  networkInterfaces(): Promise<unknown>;
}

/** The library is loaded on the first inventory, never at start-up (qprep --version stays fast). */
export async function loadSystemInformation(): Promise<SystemInformationApi> {
  const loaded = (await import('systeminformation')) as unknown as { default?: SystemInformationApi } & SystemInformationApi;
  return loaded.default ?? loaded;
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

type Answer<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One library call, bounded: a call that hangs or throws becomes a reason, never a hang. */
async function bounded<T>(name: string, call: () => Promise<T>, timeoutMs: number): Promise<Answer<T>> {
  let work: Promise<Answer<T>>;
  try {
    work = call().then(
      (value): Answer<T> => ({ ok: true, value }),
      (error: unknown): Answer<T> => ({ ok: false, reason: `systeminformation ${name}() failed: ${error instanceof Error ? error.message : String(error)}` }),
    );
  } catch (error) {
    return { ok: false, reason: `systeminformation ${name}() failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return withTimeout(work, timeoutMs, () => ({ ok: false, reason: `systeminformation ${name}() gave no answer within ${timeoutMs} ms` }));
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

interface LibraryNic {
  iface?: unknown;
  ip4?: unknown;
  mac?: unknown;
  mtu?: unknown;
  speed?: unknown;
  duplex?: unknown;
  operstate?: unknown;
  virtual?: unknown;
  internal?: unknown;
}

/** systeminformation's networkInterfaces() entry as an inventory NIC. */
export function nicFromLibrary(entry: LibraryNic): InventoryNic | undefined {
  if (typeof entry.iface !== 'string' || entry.iface === '') return undefined;
  const duplex = typeof entry.duplex === 'string' && (entry.duplex === 'full' || entry.duplex === 'half') ? entry.duplex : null;
  return {
    name: entry.iface,
    mac: typeof entry.mac === 'string' && entry.mac !== '' ? entry.mac : null,
    ipv4: typeof entry.ip4 === 'string' && entry.ip4 !== '' ? entry.ip4 : null,
    mtu: positive(entry.mtu),
    speedMbps: positive(entry.speed),
    duplex,
    state: typeof entry.operstate === 'string' && entry.operstate !== '' ? entry.operstate : 'unknown',
    virtual: entry.internal === true ? true : typeof entry.virtual === 'boolean' ? entry.virtual : null,
  };
}

function byName(a: InventoryNic, b: InventoryNic): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export interface LiveInventoryOptions {
  files: InventoryFiles;
  timeoutMs: number;
  load?: () => Promise<SystemInformationApi>;
}

/**
 * The running system: CPUs, memory, OS and NICs from systeminformation, each call bounded by
 * the timeout; DMI strings and NUMA nodes from sysfs through the host's reads. Interfaces the
 * library does not list (it lists those with an address) are read from /sys/class/net.
 */
export async function liveInventory(options: LiveInventoryOptions): Promise<HostInventory> {
  const inventory = emptyInventory('systeminformation');
  const { files, timeoutMs } = options;
  let library: SystemInformationApi | undefined;
  let loadFailure = '';
  try {
    library = await (options.load ?? loadSystemInformation)();
  } catch (error) {
    loadFailure = `systeminformation could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  }
  const notLoaded = <T>(): Promise<Answer<T>> => Promise.resolve({ ok: false, reason: loadFailure });
  const call = <T>(name: string, fn: (api: SystemInformationApi) => Promise<T>): Promise<Answer<T>> =>
    library ? bounded(name, () => fn(library), timeoutMs) : notLoaded<T>();

  const [dmi, system, bios, cpu, mem, os, nics, numa, sysfsNames] = await Promise.all([
    readDmi(files),
    call('system', (api) => api.system()),
    call('bios', (api) => api.bios()),
    call('cpu', (api) => api.cpu()),
    call('mem', (api) => api.mem()),
    call('osInfo', (api) => api.osInfo()),
    call('networkInterfaces', (api) => api.networkInterfaces()),
    countNumaNodes(files),
    listSysfsNics(files),
  ]);

  const systemValue = (key: 'manufacturer' | 'model' | 'serial'): Answer<string | undefined> =>
    system.ok ? { ok: true, value: system.value[key] } : system;
  const biosValue = (key: 'vendor' | 'version'): Answer<string | undefined> => (bios.ok ? { ok: true, value: bios.value[key] } : bios);
  inventory.system.manufacturer = pick(inventory, 'system.manufacturer', dmi.manufacturer, systemValue('manufacturer'));
  inventory.system.model = pick(inventory, 'system.model', dmi.model, systemValue('model'));
  inventory.system.serial = pick(inventory, 'system.serial', dmi.serial, systemValue('serial'));
  inventory.system.virtual = system.ok && typeof system.value.virtual === 'boolean' ? system.value.virtual : null;
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

  if (mem.ok && positive(mem.value.total) !== null) inventory.memoryBytes = mem.value.total!;
  else inventory.unknown.push({ field: 'memoryBytes', reason: mem.ok ? 'systeminformation mem() has no total' : mem.reason });

  if (os.ok) {
    inventory.os.distro = meaningful(os.value.distro);
    inventory.os.release = meaningful(os.value.release);
  } else inventory.unknown.push({ field: 'os', reason: os.reason });

  const listed = new Map<string, InventoryNic>();
  if (nics.ok && Array.isArray(nics.value)) {
    for (const entry of nics.value as LibraryNic[]) {
      const nic = entry && typeof entry === 'object' ? nicFromLibrary(entry) : undefined;
      if (nic) listed.set(nic.name, nic);
    }
  } else if (!nics.ok) inventory.unknown.push({ field: 'nics', reason: `${nics.reason}; the interfaces are read from ${NET}` });
  if (sysfsNames.ok) {
    for (const name of sysfsNames.value) if (!listed.has(name)) listed.set(name, await readSysfsNic(files, name));
  } else if (listed.size === 0) inventory.unknown.push({ field: 'nics', reason: sysfsNames.reason });
  inventory.nics = listed.size > 0 || sysfsNames.ok ? [...listed.values()].sort(byName) : null;
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

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

interface InventoryNicFact {
  name: string;
  mac: string | null;
  mtu: number | null;
  state: string;
}
interface FactsDocument {
  inventory: {
    system: { manufacturer: string | null; model: string | null; serial?: string | null };
    cpu: { threads: number | null };
    nics: InventoryNicFact[] | null;
    redacted: string[];
  };
}

const work = mkdtempSync(join(tmpdir(), 'qprep-inventory-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function facts(args: string[] = []): Promise<FactsDocument> {
  const result = await qprep(['facts', ...args]);
  expect(result.exitCode, result.stderr).toBe(0);
  const document = JSON.parse(result.stdout) as FactsDocument;
  const { valid, errors } = await validateAgainstSchema('facts', document);
  expect(valid, errors).toBe(true);
  return document;
}

function sysfs(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

describe('qprep facts: the inventory agrees with the machine', () => {
  it('reports as many CPUs as nproc', async (context) => {
    const nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
    const all = Number(execFileSync('nproc', ['--all'], { encoding: 'utf8' }).trim());
    if (nproc !== all) {
      console.log(`skipped: nproc (${nproc}) is limited by the CPU affinity of this run; the inventory counts the host's ${all} CPUs`);
      context.skip();
    }
    const document = await facts();
    expect(document.inventory.cpu.threads).toBe(nproc);
  });

  it('reports the MTU and state of every interface as /sys/class/net/*/ holds them', async (context) => {
    if (!existsSync('/sys/class/net')) {
      console.log('skipped: this machine has no /sys/class/net');
      context.skip();
    }
    const document = await facts();
    const names = readdirSync('/sys/class/net').sort();
    expect(document.inventory.nics?.map((n) => n.name).sort()).toEqual(names);
    for (const name of names) {
      const nic = document.inventory.nics!.find((n) => n.name === name)!;
      expect(nic.mtu, `${name} mtu`).toBe(Number(sysfs(`/sys/class/net/${name}/mtu`)));
      expect(nic.state, `${name} state`).toBe(sysfs(`/sys/class/net/${name}/operstate`));
      expect(nic.mac, `${name} mac is redacted`).toBeNull();
    }
    expect(document.inventory.redacted).toEqual(['serial', 'mac']);
  });

  it('reports the DMI vendor and model of /sys/class/dmi/id', async (context) => {
    const vendor = sysfs('/sys/class/dmi/id/sys_vendor');
    const model = sysfs('/sys/class/dmi/id/product_name');
    if (vendor === undefined || model === undefined) {
      console.log('skipped: /sys/class/dmi/id/sys_vendor or product_name is absent on this machine (a guest or container without DMI)');
      context.skip();
    }
    const document = await facts();
    expect(document.inventory.system.manufacturer).toBe(vendor || null);
    expect(document.inventory.system.model).toBe(model || null);
  });

  it('shows the MACs with --include-mac and the serial only with --include-serial', async () => {
    const plain = await facts();
    expect('serial' in plain.inventory.system).toBe(false);
    const shown = await facts(['--include-mac', '--include-serial']);
    expect('serial' in shown.inventory.system).toBe(true);
    expect(shown.inventory.redacted).toEqual([]);
    const eth = shown.inventory.nics?.find((n) => sysfs(`/sys/class/net/${n.name}/address`));
    if (eth) expect(eth.mac).toBe(sysfs(`/sys/class/net/${eth.name}/address`));
  });
});

describe('qprep facts --root: the tree\'s interfaces, never those qprep runs among', () => {
  it('lists the NICs of root/sys/class/net and the DMI model of the tree', async () => {
    const root = join(work, 'host');
    const put = (path: string, content: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), content);
    };
    put('sys/class/net/enp61s0f0/mtu', '9000\n');
    put('sys/class/net/enp61s0f0/operstate', 'up\n');
    put('sys/class/net/enp61s0f0/speed', '100000\n');
    put('sys/class/dmi/id/sys_vendor', 'Huawei\n');
    put('sys/class/dmi/id/product_name', 'A800I A2\n');
    const document = await facts(['--root', root]);
    expect(document.inventory.nics?.map((n) => [n.name, n.mtu, n.state])).toEqual([['enp61s0f0', 9000, 'up']]);
    expect(document.inventory.system).toMatchObject({ manufacturer: 'Huawei', model: 'A800I A2' });
  });
});

describe('qprep snapshot and replay of the inventory', () => {
  it('a snapshot holds the inventory and facts --snapshot returns it unchanged', async () => {
    const file = join(work, 'host.json');
    // host.model skips where DMI is absent; with the other host checks the run has a verdict to give
    const recorded = await qprep(['snapshot', '-o', file, '--only', 'host']);
    expect([0, 1], recorded.stderr).toContain(recorded.exitCode);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { inventory?: { nics: InventoryNicFact[] | null; cpu: unknown; system: { model: string | null } } };
    expect(snapshot.inventory).toBeDefined();
    const replayed = await facts(['--snapshot', file, '--include-mac', '--include-serial']);
    const { redacted: _redacted, ...inventory } = replayed.inventory as FactsDocument['inventory'] & Record<string, unknown>;
    expect(JSON.stringify(inventory)).toBe(JSON.stringify(snapshot.inventory));
  });
});

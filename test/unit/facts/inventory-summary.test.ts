import { describe, expect, it } from 'vitest';
import { inventorySummary, REPORT_NICS, REPORT_TEXT_CHARS } from '../../../src/facts/inventory-summary.js';
import type { InventoryFact } from '../../../src/facts/schema.js';

function nic(name: string, virtual: boolean | null): NonNullable<InventoryFact['nics']>[number] {
  return { name, mac: null, ipv4: null, mtu: 1500, speedMbps: null, duplex: null, state: 'up', virtual };
}

function inventory(nics: InventoryFact['nics'], model = 'A800I A2'): InventoryFact {
  return {
    source: 'systeminformation',
    system: { manufacturer: 'Huawei', model, virtual: false },
    bios: { vendor: null, version: null },
    cpu: { brand: 'Kunpeng-920', sockets: 4, cores: 192, threads: 192, numaNodes: 8 },
    memoryBytes: 1_622_016_000_000,
    os: { distro: 'Ubuntu', release: '22.04' },
    nics,
    redacted: ['serial', 'mac'],
    unknown: [],
  };
}

describe('the inventory a report carries', () => {
  it('is the inventory itself on a real host: 64 NICs or fewer, short texts', () => {
    const real = inventory([nic('enp189s0f0', false), nic('docker0', true), ...Array.from({ length: 62 }, (_, i) => nic(`veth${i}`, true))]);
    expect(inventorySummary(real)).toEqual(real);
    expect(inventorySummary(inventory(null))).toEqual(inventory(null));
  });

  it('lists 64 NICs, physical first, then those of unknown kind, then the virtual ones, each group in order; nicsOmitted counts the rest', () => {
    const nics = [...Array.from({ length: 100 }, (_, i) => nic(`veth${i}`, true)), nic('eth-unknown', null), nic('enp1', false), nic('enp2', false)];
    const summary = inventorySummary(inventory(nics));
    expect(summary.nics).toHaveLength(REPORT_NICS);
    expect(summary.nics!.slice(0, 4).map((n) => n.name)).toEqual(['enp1', 'enp2', 'eth-unknown', 'veth0']);
    expect(summary.nics!.at(-1)!.name).toBe('veth60');
    expect(summary.nicsOmitted).toBe(103 - REPORT_NICS);
  });

  it('cuts a text field at 256 characters, saying so with an ellipsis', () => {
    const summary = inventorySummary(inventory([nic('x'.repeat(300), false)], 'M'.repeat(1000)));
    expect(summary.system.model).toBe(`${'M'.repeat(REPORT_TEXT_CHARS - 1)}…`);
    expect(summary.nics![0]!.name).toHaveLength(REPORT_TEXT_CHARS);
    expect(inventorySummary(inventory(null, 'M'.repeat(REPORT_TEXT_CHARS))).system.model).toBe('M'.repeat(REPORT_TEXT_CHARS));
  });
});

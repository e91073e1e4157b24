import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import check from '../../../checks/host.model.js';
import { atlasServer } from '../../../src/parsers/server-model.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/** The value of one "Key: value" line of the System Information block of a dmidecode capture. */
function dmidecodeSystemField(capture: string, key: string): string {
  const block = capture.split(/\n(?=Handle )/).find((part) => /\nSystem Information\n/.test(part));
  const line = block?.split('\n').find((l) => l.trim().startsWith(`${key}:`));
  if (!line) throw new Error(`no ${key} in the System Information block`);
  return line.trim().slice(key.length + 1).trim();
}

const capture = (name: string) => readFileSync(new URL(`../../fixtures/dmi/${name}`, import.meta.url), 'utf8');
const A800I_A2 = capture('dmidecode-t-system-a800i-a2-kylin-llm-action.txt');
const A800T_A2 = capture('dmidecode-t-system-a800-9000-a2-ubuntu-llm-action.txt');

/** sysfs holds the DMI strings the way dmidecode prints them, one per file with a newline. */
function dmiFiles(capture: string): Record<string, string> {
  return {
    '/sys/class/dmi/id/sys_vendor': `${dmidecodeSystemField(capture, 'Manufacturer')}\n`,
    '/sys/class/dmi/id/product_name': `${dmidecodeSystemField(capture, 'Product Name')}\n`,
  };
}

describe('atlasServer (DMI product names)', () => {
  it('recognizes the published product names and the marketing names', () => {
    expect(atlasServer(dmidecodeSystemField(A800I_A2, 'Product Name'))).toEqual({ family: 'a2', product: 'A800I A2' });
    expect(atlasServer(dmidecodeSystemField(A800T_A2, 'Product Name'))).toEqual({ family: 'a2', product: 'A800 9000 A2' });
    // no public A3 capture: the marketing names of the A3 servers
    expect(atlasServer('Atlas 800T A3')?.family).toBe('a3');
    expect(atlasServer('Atlas 900 A3 SuperPoD')?.family).toBe('a3');
    expect(atlasServer('A200T A3 Box8')?.family).toBe('a3');
  });

  it('does not guess for other servers', () => {
    expect(atlasServer('TaiShan 200 (Model 2280)')).toBeUndefined();
    expect(atlasServer('Atlas 800 (Model 3000)')).toBeUndefined();
    expect(atlasServer('KVM')).toBeUndefined();
    expect(atlasServer('A2 Server')).toBeUndefined();
  });
});

describe('host.model', () => {
  it('passes an Atlas 800I A2 (published DMI strings) under an A2 profile', async () => {
    const { outcome } = await runOn(check, { files: dmiFiles(A800I_A2) }, { npu: { family: 'a2' } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('"A800I A2" (Huawei) is an Atlas A2 (910B) server, as profile default expects');
  });

  it('fails an Atlas 800 A3 profile on an A2 server, with the fix', async () => {
    const { outcome, result } = await runOn(check, { files: dmiFiles(A800T_A2) }, {}, {});
    expect(outcome.status).toBe('skip'); // default profile: family any
    const a3 = await runOn(check, { files: dmiFiles(A800T_A2) }, { name: 'qwen3.5-397b-w8a8-a3', npu: { family: 'a3' } });
    expect(a3.outcome.status).toBe('fail');
    expect(a3.outcome.message).toBe('"A800 9000 A2" (Huawei) is an Atlas A2 (910B) server, but profile qwen3.5-397b-w8a8-a3 is for Atlas A3 (910C)');
    expect(a3.result.status).toBe('fail');
    expectRemediation(a3.outcome);
    expect(result.level).toBe('required');
  });

  it('fails an A2 profile on an A3 server', async () => {
    const { outcome } = await runOn(check, { files: { '/sys/class/dmi/id/product_name': 'Atlas 800T A3\n' } }, { npu: { family: 'a2' } });
    expect(outcome.status).toBe('fail');
  });

  it('skips when the DMI model is unknown or a placeholder, saying why', async () => {
    const none = await runOn(check, {}, { npu: { family: 'a3' } });
    expect(none.outcome.status).toBe('skip');
    expect(none.outcome.message).toBe('the server model is unknown (/sys/class/dmi/id/product_name: no such file): not judged');
    const placeholder = await runOn(check, { files: { '/sys/class/dmi/id/product_name': 'To be filled by O.E.M.\n' } }, { npu: { family: 'a3' } });
    expect(placeholder.outcome.status).toBe('skip');
    expect(placeholder.outcome.message).toContain('placeholder');
  });

  it('skips a server it does not recognize and a 310P profile', async () => {
    const other = await runOn(check, { files: { '/sys/class/dmi/id/product_name': 'TaiShan 200 (Model 2280)\n' } }, { npu: { family: 'a2' } });
    expect(other.outcome.status).toBe('skip');
    const duo = await runOn(check, { files: dmiFiles(A800I_A2) }, { npu: { family: '310p' } });
    expect(duo.outcome.status).toBe('skip');
  });
});

describe('host.model: every skip says what to do', () => {
  it('names a fix in each of its skips', async () => {
    for (const [files, family] of [
      [{}, 'any'],
      [{}, 'a3'],
      [{ '/sys/class/dmi/id/product_name': 'TaiShan 200 (Model 2280)\n' }, 'a2'],
      [dmiFiles(A800I_A2), '310p'],
    ] as const) {
      const { outcome } = await runOn(check, { files }, { npu: { family } });
      expect(outcome.status).toBe('skip');
      expectRemediation(outcome);
    }
  });
});

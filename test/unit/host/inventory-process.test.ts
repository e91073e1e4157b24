import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyCommandResult } from '../../../src/host/command-result.js';
import { libraryAnswersFrom, pickFields } from '../../../src/host/inventory-process.js';
import { LiveHost } from '../../../src/host/live.js';
import type { CommandResult } from '../../../src/host/types.js';
import { stateOf } from '../../helpers/proc.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ended(stdout: string, how: Partial<CommandResult> = {}): CommandResult {
  return { ...emptyCommandResult(['node', 'qprep.mjs', '--qprep-inventory-process']), exitCode: 0, stdout, ...how };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('the answers of the inventory process', () => {
  it('keeps the fields the inventory reads, each call as it answered; lines that are not answers are not read', () => {
    const answers = libraryAnswersFrom(
      ended(
        line({ call: 'mem', value: { total: 25276071936 } }) +
          'a warning a library printed\n' +
          line({ call: 'osInfo', error: 'Command failed: hostname -f' }) +
          '{"call": "cpu", "value": {"brand": "Xeon"\n' +
          line({ call: 'uptime', value: {} }),
      ),
      2000,
    );
    expect(answers.mem).toEqual({ ok: true, value: { total: 25276071936 } });
    expect(answers.osInfo).toEqual({ ok: false, reason: 'systeminformation osInfo() failed: Command failed: hostname -f' });
    // a line cut short is no answer: the call is unknown, with how the process ended
    expect(answers.cpu).toEqual({ ok: false, reason: 'the inventory process exited with code 0 before systeminformation cpu() answered' });
  });

  it('says the budget and the kill for every call not answered when the process was killed at the budget', () => {
    const answers = libraryAnswersFrom(ended(line({ call: 'mem', value: { total: 1 } }), { exitCode: null, signal: 'SIGKILL', timedOut: true }), 2000);
    expect(answers.mem.ok).toBe(true);
    expect(answers.system).toEqual({ ok: false, reason: 'systeminformation system() gave no answer within 2000 ms: the inventory process was killed with the helpers it ran' });
  });

  it('says how the process ended otherwise: a crash with its first line of stderr, a start that failed, a library that did not load', () => {
    const crashed = libraryAnswersFrom(ended('', { exitCode: 134, stderr: 'FATAL ERROR: Reached heap limit Allocation failed\n more\n' }), 2000);
    expect(crashed.bios).toEqual({ ok: false, reason: 'the inventory process exited with code 134 before systeminformation bios() answered: FATAL ERROR: Reached heap limit Allocation failed' });
    const notStarted = libraryAnswersFrom(ended('', { exitCode: null, notFound: true, failure: '/opt/node: command not found' }), 2000);
    expect(notStarted.cpu).toEqual({ ok: false, reason: 'the inventory process could not run: /opt/node: command not found' });
    const unloaded = libraryAnswersFrom(ended(line({ load: "Cannot find package 'systeminformation'" })), 2000);
    expect(unloaded.system).toEqual({ ok: false, reason: "systeminformation could not be loaded: Cannot find package 'systeminformation'" });
  });

  it('picks only the fields read, of the kinds JSON keeps', () => {
    expect(pickFields('system', { manufacturer: 'Huawei', model: 'A800I A2', serial: 'X', virtual: false, uuid: 'u', sku: 's' })).toEqual({ manufacturer: 'Huawei', model: 'A800I A2', serial: 'X', virtual: false });
    expect(pickFields('cpu', { cores: Number.NaN, brand: { nested: true }, processors: 2 })).toEqual({ processors: 2 });
    expect(pickFields('mem', null)).toEqual({});
  });
});

describe('LiveHost runs the inventory process like a tool call', () => {
  it('a process that answers three calls and then hangs with a helper: the three are kept, the rest unknown at the budget, the helper killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-inventory-process-'));
    temporary.push(dir);
    const pidFile = join(dir, 'helper.pid');
    const program = join(dir, 'inventory-process.mjs');
    // like systeminformation running dmidecode with execSync: the helper hangs and the process with it
    writeFileSync(
      program,
      [
        "import { execSync } from 'node:child_process';",
        "const say = (line) => process.stdout.write(JSON.stringify(line) + '\\n');",
        "say({ call: 'mem', value: { total: 17179869184 } });",
        "say({ call: 'osInfo', value: { distro: 'openEuler', release: '22.03' } });",
        "say({ call: 'cpu', value: { manufacturer: 'HiSilicon', brand: 'Kunpeng-920', cores: 192, physicalCores: 192, processors: 4 } });",
        `execSync('sleep 300 & echo $! > ${pidFile}; wait');`,
      ].join('\n'),
    );
    const host = new LiveHost({ timeoutMs: 1000, inventoryProcess: [process.execPath, program] });
    const inventory = await host.inventory();
    expect(inventory.memoryBytes).toBe(17179869184);
    expect(inventory.os).toEqual({ distro: 'openEuler', release: '22.03' });
    expect(inventory.cpu).toMatchObject({ brand: 'HiSilicon Kunpeng-920', sockets: 4, threads: 192 });
    expect(inventory.unknown).toContainEqual({ field: 'system.virtual', reason: 'systeminformation system() gave no answer within 1000 ms: the inventory process was killed with the helpers it ran' });
    const helper = Number(readFileSync(pidFile, 'utf8').trim());
    expect(helper).toBeGreaterThan(1);
    // killed with the inventory process's group: gone, or a zombie waiting for its reaper
    const deadline = Date.now() + 5000;
    while (![undefined, 'Z'].includes(stateOf(helper)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect([undefined, 'Z']).toContain(stateOf(helper));
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../helpers/fixtures.js';
import { fakeBin, hostTree, qprepWith, shellQuote, tmp } from './support.js';

/*
 * Text from the host reaches the human report and the JUnit XML with its terminal escapes and
 * control characters shown as \xNN, whichever check quotes it: npu-smi fields (health, a
 * process name), hccn_tool's answers and error text, os-release PRETTY_NAME, a sysctl value,
 * the CPU governor, a version file, and the hostname of a replayed snapshot. The inputs are
 * the real captures with the hostile bytes put in; none is a new output format.
 */

const WIDE = fixturePath('ascend', 'npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt');
const BOARD = fixturePath('ascend', 'npu-smi-info-t-board-910a-mindcluster-fixture.txt');
const HCCN_IP = fixturePath('ascend', 'hccn-ip-g-a2x8-mindie-dsv3doc.txt');

/** An OSC title change, a screen clear, a colour, a bell, a C1 CSI and a bidi override: what an attacker would print. */
const ATTACK = '\u001b]0;owned\u0007\u001b[2J\u001b[31m\u009b1m\u202e';
/** Any character a terminal would interpret; a line feed is the report's own. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let root: string;
let bin: string;

beforeAll(() => {
  const table = readFileSync(WIDE, 'utf8');
  const process = /\|\s*\d+\s+\d+\s*\|\s*\d+\s*\|\s*(\S+)\s*\|/.exec(table.split('\n').find((l) => /pytest/.test(l)) ?? '')?.[1] ?? 'pytest';
  const npuSmiTable = table.replace(process, `py${ATTACK}test`).replace(/\| OK {12}\|/, `| OK${ATTACK}  |`);
  const dir = tmp('inject');
  writeFileSync(join(dir, 'table.txt'), npuSmiTable);
  writeFileSync(join(dir, 'hccn-ip.txt'), readFileSync(HCCN_IP, 'utf8').split('\n')[0]!.replace(/\d+\.\d+\.\d+\.\d+/, (ip) => `${ip}${ATTACK}`) + '\n');
  bin = fakeBin({
    'npu-smi': ['case "$*" in', `  info) cat ${shellQuote(join(dir, 'table.txt'))} ;;`, `  "info -t board -i "*) cat ${shellQuote(BOARD)} ;;`, `  *) printf 'Command or option is not found.${ATTACK}\\n'; exit 1 ;;`, 'esac', ''].join('\n'),
    hccn_tool: ['case "$*" in', `  *"-ip -g"*) cat ${shellQuote(join(dir, 'hccn-ip.txt'))} ;;`, `  *) printf 'dsmi_get_device_ip_address failed${ATTACK}, ret = 8\\n' >&2; exit 1 ;;`, 'esac', ''].join('\n'),
  });
  root = hostTree({
    '/etc/os-release': `NAME="Ubuntu"\nVERSION_ID="22.04"\nPRETTY_NAME="Ubuntu 22.04${ATTACK} LTS"\nID=ubuntu\n`,
    '/proc/sys/vm/swappiness': `10${ATTACK}\n`,
    '/proc/sys/kernel/numa_balancing': `1${ATTACK}\n`,
    '/sys/devices/system/cpu/online': '0-1\n',
    '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': `powersave${ATTACK}\n`,
    '/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor': `powersave${ATTACK}\n`,
  });
});

function expectVisible(text: string, what: string): void {
  const raw = RAW_CONTROL.exec(text);
  expect(raw ? `raw U+${raw[0].charCodeAt(0).toString(16).padStart(4, '0')} near "${text.slice(Math.max(0, raw.index - 40), raw.index)}"` : 'none', what).toBe('none');
  // shown, not dropped: the operator can see that the host printed an escape
  expect(text, what).toContain('\\x1b');
}

describe('terminal escapes from the host', () => {
  it('the human report shows every control character as \\xNN', async () => {
    const run = await qprepWith(bin, ['check', '--root', root, '--no-color', '--timeout', '5s']);
    expect(run.exitCode, run.stderr).toBeLessThan(2);
    expectVisible(run.stdout, 'check (human)');
    // the fields the attack went into are all quoted in the report
    expect(run.stdout).toContain('Ubuntu 22.04\\x1b]0;owned\\x07\\x1b[2J\\x1b[31m\\x9b1m\\u202e LTS');
    expect(run.stdout).toMatch(/powersave\\x1b\]0;owned/);
    expect(run.stdout).toMatch(/py\\x1b\]0;owned\\x07.*test/);
    expect(RAW_CONTROL.test(run.stderr), 'stderr').toBe(false);
  });

  it('the JUnit XML too, in attributes and in element text', async () => {
    const run = await qprepWith(bin, ['check', '--root', root, '--format', 'junit', '--timeout', '5s']);
    expect(run.exitCode, run.stderr).toBeLessThan(2);
    expectVisible(run.stdout, 'check --format junit');
    expect(run.stdout).not.toContain('#x1B');
  });

  it("a snapshot's hostname and recorded outputs, replayed", async () => {
    const snapshot = join(tmp('inject-snap'), 'host.json');
    const recorded = await qprepWith(bin, ['snapshot', '--root', root, '-o', snapshot, '--timeout', '5s']);
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const document = JSON.parse(readFileSync(snapshot, 'utf8')) as { identity: { hostname: string } };
    document.identity.hostname = `node1${ATTACK}`;
    writeFileSync(snapshot, JSON.stringify(document));
    for (const format of ['human', 'junit'] as const) {
      const replay = await qprepWith(null, ['check', '--snapshot', snapshot, '--format', format, '--no-color']);
      expect(replay.exitCode, replay.stderr).toBeLessThan(2);
      expectVisible(replay.stdout, `replay --format ${format}`);
      expect(replay.stdout).toContain('node1\\x1b]0;owned');
    }
  });
});

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { locateExecutable, locateExecutableSync } from '../../../src/host/commands.js';
import { abandonEarlyCalls, earlyDevices, startEarlyCalls } from '../../../src/host/early-calls.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost } from '../../../src/host/limited.js';
import { LiveHost } from '../../../src/host/live.js';
import { RecordingHost } from '../../../src/host/snapshot.js';

/**
 * The early calls with real processes: fake npu-smi and hccn_tool that log each call (start, end,
 * argv) and, like the real hccn_tool, answer "busy" to a call made while another runs.
 */
function fakeTools(npuSmiSleep: string): { bin: string; log: string; root: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qprep-early-'));
  const bin = join(dir, 'bin');
  const log = join(dir, 'calls.log');
  mkdirSync(bin);
  const logLine = `printf '%s %s %s\\n' "$start" "$EPOCHREALTIME" "$outcome $*" >> ${log}`;
  writeFileSync(join(bin, 'npu-smi'), `#!/bin/bash\nstart=$EPOCHREALTIME\necho $$ > ${join(dir, 'npu-smi.pid')}\nsleep ${npuSmiSleep}\necho "npu-smi table"\noutcome=ok\n${logLine}\n`);
  writeFileSync(
    join(bin, 'hccn_tool'),
    `#!/bin/bash\nstart=$EPOCHREALTIME\nexec 9>>${join(dir, 'lock')}\nif ! flock -n 9; then outcome=busy; ${logLine}; echo "hccn_tool is busy, please try again"; exit 1; fi\nsleep 0.15\necho "ipaddr:10.0.0.$2"\noutcome=ok\n${logLine}\n`,
  );
  chmodSync(join(bin, 'npu-smi'), 0o755);
  chmodSync(join(bin, 'hccn_tool'), 0o755);
  const root = join(dir, 'root');
  mkdirSync(join(root, 'dev'), { recursive: true });
  for (const device of [0, 1, 2]) writeFileSync(join(root, 'dev', `davinci${device}`), '');
  return { bin, log, root, dir };
}

const logged = (log: string) =>
  (existsSync(log) ? readFileSync(log, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, outcome, ...argv] = line.split(' ');
      return { start: Number(start), end: Number(end), outcome: outcome!, command: argv.join(' ') };
    })
    .sort((a, b) => a.start - b.start);

/** The early calls run with process.env, as the live host's commands do: PATH leads to the fakes for the test. */
async function withPath<T>(bin: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.PATH;
  process.env.PATH = `${bin}:${before ?? '/usr/bin:/bin'}`;
  try {
    return await work();
  } finally {
    process.env.PATH = before;
    abandonEarlyCalls();
  }
}

afterEach(() => abandonEarlyCalls());

describe('the early calls', () => {
  it('the run takes them over through its seam (recorded, no second process); the limiter counts the one running; the early queue stops there', async () => {
    const { bin, log, root } = fakeTools('0.2');
    await withPath(bin, async () => {
      startEarlyCalls({ root, timeoutMs: 5000, hccn: true, env: process.env });
      // the run: a recording host over the live host, limited per tool
      const recorder = new RecordingHost(new LiveHost({ root, timeoutMs: 5000 }));
      const host = new LimitedHost(recorder, 8, DEFAULT_TOOL_LIMITS);
      const hccnTool = join(bin, 'hccn_tool');
      // another question first: it must wait for the early one running, not answer "busy"
      const [link, ip, table] = await Promise.all([
        host.run([hccnTool, '-i', '2', '-link', '-g'], { timeoutMs: 5000 }),
        host.run([hccnTool, '-i', '0', '-ip', '-g'], { timeoutMs: 5000 }),
        host.run([join(bin, 'npu-smi'), 'info'], { timeoutMs: 5000 }),
      ]);
      expect([link.exitCode, ip.stdout, table.stdout]).toEqual([0, 'ipaddr:10.0.0.0\n', 'npu-smi table\n']);
      // each once, none answered "busy", and the early queue asked nothing once the run's limiter was there
      const calls = logged(log);
      expect(calls.map((c) => `${c.outcome} ${c.command}`).sort()).toEqual(['ok -i 0 -ip -g', 'ok -i 2 -link -g', 'ok info']);
      const early = calls.find((c) => c.command === '-i 0 -ip -g')!;
      expect(calls.find((c) => c.command === '-i 2 -link -g')!.start).toBeGreaterThanOrEqual(early.end);
      // recorded as any call: a snapshot of this run replays them
      const recorded = (await recorder.toSnapshot({ name: 'qprep', version: 'test' })).commands.map((c) => c.argv.slice(1).join(' '));
      expect(recorded.sort()).toEqual(['-i 0 -ip -g', '-i 2 -link -g', 'info']);
      host.stop();
    });
  });

  it('asks the early devices one after the other, each as the previous ends, until the run takes over', async () => {
    const { bin, log, root } = fakeTools('0.1');
    await withPath(bin, async () => {
      startEarlyCalls({ root, timeoutMs: 5000, hccn: true, env: process.env });
      const deadline = Date.now() + 10_000;
      while (logged(log).filter((c) => c.command.endsWith('-ip -g')).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const ips = logged(log).filter((c) => c.command.endsWith('-ip -g'));
      expect(ips.map((c) => c.command)).toEqual(['-i 0 -ip -g', '-i 1 -ip -g', '-i 2 -ip -g']);
      for (let i = 1; i < ips.length; i++) expect(ips[i]!.start).toBeGreaterThanOrEqual(ips[i - 1]!.end);
      expect(logged(log).some((c) => c.outcome !== 'ok')).toBe(false);
    });
  });

  it('one nobody takes over is killed with its group at the run\'s end', async () => {
    const { bin, root, dir } = fakeTools('30');
    await withPath(bin, async () => {
      startEarlyCalls({ root, timeoutMs: 60_000, hccn: false, env: process.env });
      const host = new LimitedHost(new LiveHost({ root, timeoutMs: 60_000 }), 8, DEFAULT_TOOL_LIMITS);
      const pidFile = join(dir, 'npu-smi.pid');
      const deadline = Date.now() + 10_000;
      while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(running(pid)).toBe(true);
      host.stop();
      while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(running(pid)).toBe(false);
    });
  });
});

/** Running or sleeping: not gone, not a zombie waiting for its parent. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe('an early call that hangs', () => {
  it('marks its tool hung before the calls waiting behind it get its slot: none of them runs the tool', async () => {
    const { bin, log, root } = fakeTools('0');
    // device 0's question hangs (a wedged driver); any other answers at once
    const hccnTool = join(bin, 'hccn_tool');
    writeFileSync(hccnTool, `#!/bin/bash\nstart=$EPOCHREALTIME\n[ "$2" = 0 ] && exec sleep 30\necho ok\nprintf '%s %s %s\\n' "$start" "$EPOCHREALTIME" "ok $*" >> ${log}\n`);
    await withPath(bin, async () => {
      startEarlyCalls({ root, timeoutMs: 300, hccn: true, env: process.env });
      const host = new LimitedHost(new LiveHost({ root, timeoutMs: 300 }), 8, DEFAULT_TOOL_LIMITS);
      const waiting = await Promise.all([1, 2].map((device) => host.run([hccnTool, '-i', String(device), '-link', '-g'], { timeoutMs: 300 })));
      for (const result of waiting) expect(result.failure).toMatch(/^not run: ".*hccn_tool -i 0 -ip -g" hung earlier in this run \(killed after 300 ms\)/);
      expect(logged(log).filter((c) => c.command.includes('-link'))).toEqual([]);
      host.stop();
    });
  });
});

describe('earlyDevices and locateExecutableSync: the same answers as the run\'s own', () => {
  it('the devices under --root without following a link out of it', () => {
    const { root, dir } = fakeTools('0');
    expect(earlyDevices(root, undefined)).toEqual([0, 1, 2]);
    expect(earlyDevices(root, '1')).toEqual([1]);
    expect(earlyDevices(root, 'not a list')).toEqual([]);
    // no device node: hccn.conf's devices; through a link of the tree, none (the check judges the link)
    rmSync(join(root, 'dev'), { recursive: true });
    mkdirSync(join(root, 'etc'));
    writeFileSync(join(root, 'etc', 'hccn.conf'), 'address_4=10.0.0.4\naddress_5=10.0.0.5\n');
    expect(earlyDevices(root, undefined)).toEqual([4, 5]);
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'hccn.conf'), 'address_7=10.0.0.7\n');
    rmSync(join(root, 'etc'), { recursive: true });
    symlinkSync(join(dir, 'elsewhere'), join(root, 'etc'));
    expect(earlyDevices(root, undefined)).toEqual([]);
  });

  it('finds the executable locateExecutable finds', async () => {
    const { bin } = fakeTools('0');
    for (const name of ['npu-smi', 'hccn_tool', 'sh', 'no-such-tool-qprep']) {
      const sync = locateExecutableSync(name, `/nonexistent:${bin}:/usr/bin:/bin`, ['/usr/local/Ascend/driver/tools']);
      expect(sync, name).toBe((await locateExecutable(name, `/nonexistent:${bin}:/usr/bin:/bin`, ['/usr/local/Ascend/driver/tools'])).path);
    }
  });
});

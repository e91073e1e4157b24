import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandSpec, formatsOf, longFlag, optionsOf } from '../../src/app/cli-options.js';
import { isMachineFormat } from '../../src/report/formats.js';
import { qprep } from '../helpers/cli.js';

/**
 * `--timeout 10` meant 10 ms, while serve's --interval and aggregate's --max-age refused a bare
 * number: a duration without its unit is now refused by every option that takes one, with the
 * value in seconds suggested.
 */

/** The format of a command's document: its first --format, or the one it writes without one (a snapshot is JSON). */
function documentFormat(command: string): string {
  const name = command as (typeof COMMAND_NAMES)[number];
  return formatsOf(name)[0] ?? commandSpec(name).documentFormat ?? 'human';
}

/** A command with its operands, so that only the duration is wrong. */
function commandLine(command: string): string[] {
  const operands = commandSpec(command as (typeof COMMAND_NAMES)[number]).operands ?? [];
  return [command, ...operands.map(() => 'examples/snapshots')];
}

const EVERY_DURATION = COMMAND_NAMES.flatMap((command) =>
  optionsOf(command)
    .filter(({ option }) => option.kind === 'duration')
    .map(({ option }) => [command, longFlag(option)] as const),
);

describe('a duration without its unit', () => {
  it('is in the table for every command that takes one', () => {
    expect(EVERY_DURATION).toEqual(
      expect.arrayContaining([
        ['check', '--timeout'],
        ['snapshot', '--timeout'],
        ['facts', '--timeout'],
        ['tune', '--timeout'],
        ['rollback', '--timeout'],
        ['env', '--timeout'],
        ['serve', '--timeout'],
        ['serve', '--interval'],
        ['serve', '--budget'],
        ['aggregate', '--max-age'],
      ]),
    );
  });

  it.each(EVERY_DURATION)('%s %s 10: exit 2, one error line naming the option, and 10s suggested', async (command, flag) => {
    const run = await qprep([...commandLine(command), flag, '10']);
    expect(run.exitCode).toBe(2);
    // facts and snapshot print JSON alone: their usage errors are an error document too
    if (isMachineFormat(documentFormat(command))) expect(JSON.parse(run.stdout).error.hint).toBe(`did you mean "${flag} 10s"?`);
    else expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`qprep: error: ${flag} 10: a duration needs its unit (ms, s, m, h or d)\nqprep: hint: did you mean "${flag} 10s"?\n`);
  });

  it('with --format json, the error document carries the suggestion; in Chinese, the text is Chinese', async () => {
    const json = await qprep(['check', '--timeout', '20000', '--format', 'json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout).error).toEqual({ code: 'usage', message: '--timeout 20000: a duration needs its unit (ms, s, m, h or d)', hint: 'did you mean "--timeout 20000s"?' });
    const chinese = await qprep(['check', '--timeout', '10', '--lang', 'zh']);
    expect(chinese.stderr).toBe('qprep: error: --timeout 10：时长需要带单位（ms、s、m、h 或 d）\nqprep: hint: 您是否要输入 "--timeout 10s"？\n');
  });

  it('with its unit, the same value runs', async () => {
    const run = await qprep(['check', '--snapshot', 'examples/snapshots/a2-healthy.json', '--timeout', '10s', '-q'], { env: { PATH: '/nonexistent' } });
    expect(run.exitCode).toBe(0);
  });
});

/**
 * Node's timers hold at most 2^31-1 ms: a longer delay fires after 1 ms. `serve --interval 30d`
 * then ran the checks back to back (23 runs in 8 s) and `--interval 60d` (a budget of 48 days)
 * cut every run at once. Every duration that a timer waits for is refused above that, with the
 * maximum in the line; `--max-age` is an age compared with the reports' times, never waited for.
 */
const TIMER_DURATIONS = EVERY_DURATION.filter(([command, flag]) => !(command === 'aggregate' && flag === '--max-age'));
const MAXIMUM = '24d20h31m23s647ms';

describe('a duration longer than a timer can wait', () => {
  it('every duration but --max-age is waited for by a timer', () => {
    expect(TIMER_DURATIONS.length).toBe(EVERY_DURATION.length - 1);
  });

  it.each(TIMER_DURATIONS)('%s %s 25d: exit 2, one error line with the maximum', async (command, flag) => {
    const run = await qprep([...commandLine(command), flag, '25d']);
    expect(run.exitCode).toBe(2);
    if (isMachineFormat(documentFormat(command))) expect(JSON.parse(run.stdout).error.message).toContain(MAXIMUM);
    else expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`qprep: error: ${flag} 25d is longer than the maximum of ${MAXIMUM} (2^31-1 ms), the longest a timer can wait\n`);
  });

  it('serve --interval 30d and 60d, which overflowed the timer, are refused before serve listens', async () => {
    for (const interval of ['30d', '60d']) {
      const run = await qprep(['serve', '--snapshot', 'examples/snapshots/a2-healthy.json', '--listen', '127.0.0.1:0', '--interval', interval], { timeoutMs: 20_000 });
      expect(run.exitCode, interval).toBe(2);
      expect(run.stderr).toBe(`qprep: error: --interval ${interval} is longer than the maximum of ${MAXIMUM} (2^31-1 ms), the longest a timer can wait\n`);
    }
  });

  it('the maximum itself is taken, and in Chinese the line is Chinese', async () => {
    const run = await qprep(['check', '--snapshot', 'examples/snapshots/a2-healthy.json', '--timeout', MAXIMUM, '-q'], { env: { PATH: '/nonexistent' } });
    expect(run.exitCode, run.stderr).toBe(0);
    const chinese = await qprep(['check', '--timeout', '25d', '--lang', 'zh']);
    expect(chinese.stderr).toBe(`qprep: error: --timeout 25d 超过最大值 ${MAXIMUM}（2^31-1 ms），定时器最多只能等待这么久\n`);
  });

  it('aggregate --max-age 60d is an age, not a timer: taken', async () => {
    const report = await qprep(['check', '--snapshot', 'examples/snapshots/a2-healthy.json', '--format', 'json'], { env: { PATH: '/nonexistent' } });
    const run = await qprep(['aggregate', '-', '--max-age', '60d', '--format', 'json'], { input: report.stdout });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).nodes).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandSpec, formatsOf, longFlag, optionsOf } from '../../src/app/cli-options.js';
import { isMachineFormat } from '../../src/report/formats.js';
import { qprep } from '../helpers/cli.js';

/**
 * `--timeout 10` meant 10 ms, while serve's --interval and aggregate's --max-age refused a bare
 * number: a duration without its unit is now refused by every option that takes one, with the
 * value in seconds suggested.
 */

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
    // facts prints JSON alone: its usage errors are an error document too
    if (isMachineFormat(formatsOf(command)[0] ?? 'human')) expect(JSON.parse(run.stdout).error.hint).toBe(`did you mean "${flag} 10s"?`);
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

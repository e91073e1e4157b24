import { describe, expect, it } from 'vitest';
import { handWrittenSamples, parseSample, replaceSamples, sameSample, sampleOutput, type SampleRun } from '../../../src/report/doc-samples.js';

/** What `qprep ARGV` printed, by its arguments: the runs a sample is made of, recorded. */
function recorded(runs: Record<string, SampleRun>): (argv: string[], stdin?: string) => SampleRun {
  return (argv, stdin) => {
    const run = runs[argv.join(' ')];
    if (!run) throw new Error(`no run of ${argv.join(' ')}`);
    return stdin === undefined ? run : { ...run, stdout: `${run.stdout}[stdin: ${stdin.replace(/\n/g, '|')}]\n` };
  };
}

describe('sample specs', () => {
  it('a command, a pipe of qprep runs into one, and the options after ·', () => {
    expect(parseSample('check --snapshot a.json')).toEqual({ producers: [], argv: ['check', '--snapshot', 'a.json'] });
    expect(parseSample('check -f json ; check -f json | aggregate - · sections: Launch layout, Across the cluster')).toEqual({
      producers: [['check', '-f', 'json'], ['check', '-f', 'json']],
      argv: ['aggregate', '-'],
      sections: ['Launch layout', 'Across the cluster'],
    });
    expect(parseSample('facts · json: .inventory')).toMatchObject({ json: '.inventory' });
    expect(parseSample('chekc · exit: 2')).toMatchObject({ exitCode: 2 });
  });

  it('refuses what qprep could not have printed: shell words, unknown options, two pipes', () => {
    expect(() => parseSample('check > out')).toThrow('plain words only');
    expect(() => parseSample('check · grep: READY')).toThrow('unknown sample option');
    expect(() => parseSample('check | aggregate - | aggregate -')).toThrow('pipes into one');
    expect(() => parseSample('check · exit: 1')).toThrow('unknown sample option');
  });
});

describe('sample output', () => {
  const runs = {
    'check -f json': { status: 1, stdout: '{"a":1}\n', stderr: '' },
    'aggregate -': { status: 0, stdout: 'head\n\nLaunch layout\n  x\n\nAcross the cluster\n  y\n\nREADY\n', stderr: '' },
    'facts': { status: 0, stdout: '{"inventory":{"cpu":{"cores":2}},"other":1}\n', stderr: '' },
    'chekc': { status: 2, stdout: '', stderr: "qprep: error: unknown command 'chekc'\n" },
  };
  const run = recorded(runs);

  it('pipes the producers into the last run, and keeps the paragraphs asked for', () => {
    expect(sampleOutput(parseSample('check -f json | aggregate - · sections: Across the cluster'), run)).toBe('...\nAcross the cluster\n  y\n');
    expect(() => sampleOutput(parseSample('check -f json | aggregate - · sections: Nowhere'), run)).toThrow('no paragraph "Nowhere"');
  });

  it('a part of a JSON document as jq prints it', () => {
    expect(sampleOutput(parseSample('facts · json: .inventory'), run)).toBe('{\n  "cpu": {\n    "cores": 2\n  }\n}\n');
  });

  it('a usage example shows stderr, and must end with exit code 2; any other sample must not', () => {
    expect(sampleOutput(parseSample('chekc · exit: 2'), run)).toBe("qprep: error: unknown command 'chekc'\n");
    expect(() => sampleOutput(parseSample('chekc'), run)).toThrow('exit 2');
    expect(() => sampleOutput(parseSample('facts · exit: 2'), run)).toThrow('exit 0');
  });

  it('writes the command as a reader types it', () => {
    const page = replaceSamples('<!-- sample: check -f json ; check -f json | aggregate - · sections: Launch layout -->\n<!-- sample:end -->', run);
    expect(page).toContain('$ (npx qprep check -f json; npx qprep check -f json) | npx qprep aggregate -\n...\nLaunch layout\n  x\n```');
    expect(replaceSamples('<!-- sample: facts · json: .inventory -->\n<!-- sample:end -->', run)).toContain('$ npx qprep facts | jq .inventory\n{');
  });
});

describe('what varies from run to run', () => {
  it('the run time of a report, and the ages of an aggregate table, are the same sample', () => {
    expect(sameSample('check', '5 checks · 0.1 s\n', '5 checks · 0.3 s\n')).toBe(true);
    expect(sameSample('check | aggregate -', 'a2-node1  ready  0s  8×910B3\n', 'a2-node1  ready  1s  8×910B3\n')).toBe(true);
    // outside aggregate an age-like word is text, and a changed one is a changed sample
    expect(sameSample('check --timeout 10', 'did you mean "--timeout 10s" ?\n', 'did you mean "--timeout 20s" ?\n')).toBe(false);
    expect(sameSample('check', 'READY\n', 'NOT READY\n')).toBe(false);
  });
});

describe('samples written by hand', () => {
  it('are the qprep commands of a page shown with output outside a sample', () => {
    const page = [
      '```text\n$ qprep check\nREADY\n```',
      '<!-- sample: check -->\n```text\n$ npx qprep check\nREADY\n```\n<!-- sample:end -->',
      '```sh\nnpx qprep check\n```',
      '```console\n$ qprep serve &\n$ curl -s 127.0.0.1:9105/readyz\nready\n```',
      '```text\n$ sudo qprep tune\n...\n```',
    ].join('\n\n');
    expect(handWrittenSamples(page)).toEqual(['$ qprep check', '$ sudo qprep tune']);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
// the generator of `npm run docs` itself: it runs the built CLI on the demo snapshots
import { pages, regenerate } from '../../scripts/docs-lib.mjs';
import { handWrittenSamples } from '../../src/report/doc-samples.js';

/**
 * The one transcript of docs/ that no demo snapshot can replay: `qprep tune` changing a live,
 * untuned host (every demo host has its tuning applied), then rolling it back.
 */
const LIVE_TRANSCRIPTS: Record<string, string[]> = {
  'docs/tune.md': ['$ sudo qprep tune --dry-run --persist', '$ sudo qprep tune --persist', "$ sudo qprep tune --persist --format json | jq -c '{changed, outcome}'", '$ sudo qprep rollback'],
};

/** Paths the docs name that a command writes when it runs: not in the repository, by design of the command. */
const WRITTEN = ['examples/ansible/qprep-results/', 'dist/qprep.mjs'];

const read = (name: string) => readFileSync(join(REPO, name), 'utf8');

describe('README.md and docs/', () => {
  it('every generated part is what npm run docs writes (run "npm run docs" when this fails)', () => {
    for (const name of pages()) expect(read(name), name).toBe(regenerate(read(name), name));
  });

  it('every page has its samples: the docs show what qprep prints, not a copy that drifts', () => {
    expect(read('README.md')).toMatch(/<!-- sample: check --snapshot examples\/snapshots\/a2-broken\.json -->\n```text\n\$ npx qprep check --snapshot/);
    expect(read('docs/human-report.md').match(/<!-- sample: /g)?.length).toBeGreaterThanOrEqual(3);
    expect(read('docs/demo.md').match(/<!-- sample: /g)?.length).toBeGreaterThanOrEqual(1);
    expect(read('docs/launch.md').match(/<!-- sample: /g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('no page shows what qprep prints by hand: every such block is a generated sample', () => {
    for (const name of pages()) expect(handWrittenSamples(read(name)), name).toEqual(LIVE_TRANSCRIPTS[name] ?? []);
  });

  it('a sample edited by hand is found: the regenerated page differs', () => {
    for (const name of ['docs/demo.md', 'docs/launch.md']) {
      const page = read(name);
      const edited = page.replace(/(<!-- sample: [^\n]+ -->\n```text\n[^\n]+\n[^\n]*?)(\S)(\S*\n)/, (_m, before: string, char: string, after: string) => `${before}${char === 'x' ? 'y' : 'x'}${after}`);
      expect(edited, name).not.toBe(page);
      // the edited sample is run afresh: only its run time ("· 0.1 s") may differ from the page
      const untimed = (text: string) => text.replace(/· \d+(\.\d+)? s\b/g, '· T s');
      expect(untimed(regenerate(edited, name)), name).toBe(untimed(page));
    }
  });

  it('docs/cli.md lists every option of every command, from the option table', () => {
    const reference = read('docs/cli.md');
    for (const option of ['--snapshot FILE', '--lang LANG', '--hccn-concurrency N', '--interval DURATION', '--include-serial']) expect(reference).toContain(`| \`${option}\` |`);
  });

  it('the README is short: the quick start replays a demo snapshot second, and shows the test command', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const commands = [...readme.split('## Quick start')[1]!.split('\n## ')[0]!.matchAll(/```sh\n([^\n]+)\n```/g)].map((m) => m[1]);
    expect(commands).toEqual(['npm ci && npx qprep check', 'npx qprep check --snapshot examples/snapshots/a2-broken.json', 'npm ci && npm test']);
    for (const section of ['## Quick start', '## Exit codes', '## Documentation']) expect(readme).toContain(`\n${section}\n`);
  });

  it('docs/README.md lists every page of docs/', () => {
    const contents = read('docs/README.md');
    for (const name of pages()) {
      if (name === 'README.md' || name === 'docs/README.md') continue;
      expect(contents, name).toContain(`](${name.replace('docs/', '')})`);
    }
  });

  it('refers to no file that is not in the repository', () => {
    for (const name of pages()) {
      const text = read(name);
      expect(text, name).not.toMatch(/DESIGN/);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const [path, anchor] = target!.split('#');
        const file = path ? normalize(join(dirname(name), path)) : name;
        expect(existsSync(join(REPO, file)), `${name} links to ${target}`).toBe(true);
        if (anchor && file.endsWith('.md')) {
          const headings = read(file)
            .split('\n')
            .filter((l) => /^#{1,6} /.test(l))
            .map((l) =>
              l
                .replace(/^#+ /, '')
                .trim()
                .toLowerCase()
                .replace(/[^\w\- ]/g, '')
                .replace(/ /g, '-'),
            );
          expect(headings, `${name} links to ${target}`).toContain(anchor);
        }
      }
      // paths in code spans that name a place in the repository must exist (what a command
      // writes, listed in WRITTEN, is made when it runs)
      const missing = [...text.matchAll(/`((?:src|checks|test|examples|schema|scripts|bench|docs)\/[\w./-]*[\w/])`/g)]
        .map((m) => m[1]!)
        .filter((path) => !/[*]|\/\.\.\.|NAME|FILE/.test(path) && !WRITTEN.includes(path) && !existsSync(join(REPO, path)));
      expect(missing, name).toEqual([]);
    }
  });
});

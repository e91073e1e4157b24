import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '../../../checks/index.js';
import { openHost, performCheck, profileFor } from '../../../src/app/session.js';
import type { CheckResult } from '../../../src/core/types.js';
import { zh } from '../../../src/i18n/zh/index.js';
import { REPO } from '../../helpers/cli.js';
import { runOn } from '../../helpers/run-check.js';

/**
 * Every converted check (one with an entry in the Chinese catalogue) says all it says in
 * Chinese: its outcomes on the demo hosts, and on a host with nothing on it (every probe
 * fails: the error paths). The checks without an entry are listed as todo, by id.
 */

const DEMO_DIR = join(REPO, 'examples/snapshots');
const HAN = /\p{Script=Han}/u;
/** Four English words in a row outside quotes: a sentence left in English. */
const ENGLISH_RUN = /\b[a-z]{2,}(?:[ ,]+[a-z]{2,}){3,}\b/i;

/** A remediation line that is a command (pasted as is): only its comment after "#" is prose. */
const COMMAND = /^(?:sudo |export |unset |kill |npu-smi |hccn_tool |docker |echo |sysctl |source |qprep |npx qprep |cat |ls |mount |systemctl |pip3? |cpupower |ln |mkdir |chmod |rm |ps |dmesg |lspci |ldconfig |python3? )/;

/** A command written inline in a Chinese sentence: from its command word to the next Chinese character. */
const INLINE_COMMAND = /\b(?:sudo|docker|qprep|npu-smi|hccn_tool|lspci|dmesg)\b[\x20-\x7e]*/g;

/** The prose of a text: quoted tool output, inline commands, paths, flags and ids taken out. */
function prose(text: string): string {
  return text
    .replace(/"[^"]*"|'[^']*'|“[^”]*”|`[^`]*`/g, ' ')
    .replace(INLINE_COMMAND, ' ')
    .replace(/\S*[/=_.:<>-]\S*/g, ' ');
}

function problemsOf(result: CheckResult): string[] {
  const problems: string[] = [];
  const say = (field: string, text: string) => {
    if (!HAN.test(text)) problems.push(`${field} has no Chinese: ${text}`);
    else if (ENGLISH_RUN.test(prose(text))) problems.push(`${field} keeps English: ${text}`);
  };
  say('title', result.title);
  say('message', result.message);
  for (const line of (result.remediation ?? '').split('\n').filter(Boolean)) {
    const bare = line.replace(/^or: /, '');
    const [command, comment] = bare.split(/\s{2,}# /);
    if (COMMAND.test(command!)) {
      if (comment !== undefined) say('remediation comment', comment);
    } else say('remediation', bare);
  }
  for (const detail of result.details ?? []) say('details', detail);
  return problems;
}

async function outcomesInChinese(): Promise<Map<string, CheckResult[]>> {
  const byId = new Map<string, CheckResult[]>();
  const add = (result: CheckResult) => byId.set(result.id, [...(byId.get(result.id) ?? []), result]);
  for (const file of readdirSync(DEMO_DIR).filter((f) => f.endsWith('.json'))) {
    const handle = await openHost({ snapshot: join(DEMO_DIR, file) });
    const run = await performCheck(handle, await profileFor(undefined, handle), { lang: 'zh' });
    run.results.forEach(add);
  }
  // a host with nothing on it: no npu-smi, no files; every check's "cannot read" path
  for (const check of catalogue) {
    const { result } = await runOn(check, {}, {}, { lang: 'zh' });
    add({ ...result, durationMs: 0 });
  }
  return byId;
}

const converted = catalogue.filter((check) => Object.hasOwn(zh.checks, check.id));
const notConverted = catalogue.filter((check) => !Object.hasOwn(zh.checks, check.id));

describe('no English fallback in zh', async () => {
  const outcomes = await outcomesInChinese();

  for (const check of converted) {
    it(`${check.id}: every outcome says it in Chinese (${[...new Set((outcomes.get(check.id) ?? []).map((r) => r.status))].join(', ')})`, () => {
      const results = outcomes.get(check.id) ?? [];
      expect(results.length, 'no outcome was rendered').toBeGreaterThan(0);
      expect(results.flatMap(problemsOf)).toEqual([]);
    });
  }

  for (const check of notConverted) it.todo(`${check.id}: not in src/i18n/zh/checks yet (its text is English)`);
});

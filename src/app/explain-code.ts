import { usageError } from '../errors.js';
import { textFor } from '../i18n/index.js';
import type { Lang } from '../i18n/lang.js';
import { describeSource } from '../knowledge/source.js';
import { faultCodeOf, faultTableSource, normalizeFaultCode } from '../knowledge/fault-codes.js';
import { writeRunDocument } from './signals.js';

/**
 * Is this operand of `qprep explain` a fault code rather than a check id: hexadecimal as npu-smi
 * prints it (`%04X`: 4 digits or more) or with the `0x` of the docs and the device plugin's logs.
 * Check ids have a dot, so the two never meet; "ad" or "cafe" stay check-id typos.
 */
export function looksLikeFaultCode(operand: string): boolean {
  const text = operand.trim();
  return normalizeFaultCode(text) !== undefined && (/^0x/i.test(text) || text.length >= 4);
}

function wrap(text: string, width = 96, indent = '  '): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}

/**
 * `qprep explain 80E18005`: a fault code's meaning, its handling level in the device plugin's
 * table, the action qprep recommends, and where each comes from. A code the table does not
 * list is a usage error (exit 2) that says so and names the table.
 */
export function explainFaultCode(operand: string, options: { format?: string; lang?: Lang }): number {
  const lang = options.lang ?? 'en';
  const text = textFor(lang);
  const words = text.commands.explain.code;
  const source = faultTableSource();
  const row = faultCodeOf(operand);
  if (!row) throw usageError(words.unknown({ code: normalizeFaultCode(operand) ?? operand, repo: source.repo, path: source.paths[0]!, ref: source.ref.slice(0, 12) }));
  if (options.format === 'json') {
    const { code, level, alsoIn, action, meaning, description, source: levelSource, meaningSource } = row;
    writeRunDocument(`${JSON.stringify({ code, level, alsoIn: alsoIn ?? [], action, meaning: meaning ?? null, description: description ?? null, source: levelSource, meaningSource: meaningSource ?? null }, null, 2)}\n`);
    return 0;
  }
  const paragraph = (words_: string) => (text.commands.explain.wrapParagraphs ? wrap(words_) : `  ${words_}`);
  const lines = [
    words.heading({ code: row.code, meaning: row.meaning?.[lang] ?? null }),
    words.verdict({ level: row.level, action: row.action, meaning: text.report.actions[row.action] }),
    '',
  ];
  if (row.description) lines.push(words.what, paragraph(row.description[lang]), '');
  lines.push(words.levelHeading, paragraph(words.levels[row.level]));
  if (row.alsoIn) lines.push(paragraph(words.alsoIn({ levels: row.alsoIn.join(', ') })));
  if (!row.meaning) lines.push(paragraph(words.noMeaning));
  lines.push('', words.sources, `  ${describeSource(row.source)}`);
  if (row.meaningSource) lines.push(`  ${describeSource(row.meaningSource)}`);
  lines.push(`  ${words.license}`, '');
  writeRunDocument(lines.join('\n'));
  return 0;
}

import { en, type Catalogue } from '../i18n/en/index.js';
import { shellQuote } from '../util/shell.js';
import type { EnvDocument } from './env-schema.js';

/**
 * The launch environment as shell lines to `source` (sh, bash, zsh): unset first, then one
 * export per variable, every value quoted. Comments carry the host, the interface choice and
 * the notes, so a launch log shows where each value came from.
 */
/** `invocation`: how qprep is started in this install ("npx qprep"), for the line that loads these. */
export function formatEnvSh(doc: EnvDocument, text: Catalogue = en, invocation = 'qprep'): string {
  const t = text.commands.env;
  const lines = [t.header({ hostname: doc.hostname, profile: doc.profile.name, qprep: invocation })];
  if (doc.node) lines.push(t.node({ ip: doc.node.ip, nic: doc.node.nic, source: doc.node.source }));
  for (const note of doc.notes) lines.push(t.note({ note: note.replace(/\n/g, ' ') }));
  if (doc.unset.length > 0) lines.push(`unset ${doc.unset.join(' ')}`);
  for (const variable of doc.exports) lines.push(`export ${variable.name}=${shellQuote(variable.value)}`);
  return `${lines.join('\n')}\n`;
}

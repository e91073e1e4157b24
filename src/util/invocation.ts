/**
 * `qprep tune ...` in a text a person pastes, as this install starts qprep: `npx qprep tune`,
 * `node dist/qprep.mjs tune`. Only qprep as a command is renamed: a word or a path that holds
 * it (`qprep's`, `90-qprep.conf`, `/var/lib/qprep`) is left alone, and so is a qprep started in
 * another install (`docker exec <container> qprep check`).
 */
export function invokedAs(text: string, invocation: string | undefined): string {
  if (!invocation || invocation === 'qprep') return text;
  return text.replace(/(?<![\w./-])(?<!<container> )qprep(?= (?:[a-z]|--[a-z]|[A-Z]{2,}\b))/g, () => invocation);
}

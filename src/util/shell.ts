/** Characters that never need quoting in a POSIX shell word (no glob, no expansion, no split). */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes a value for a POSIX shell (sh, bash, zsh): bare when every character is safe, else in
 * single quotes, where nothing is special except the quote itself, written as '\''. This one
 * rule covers every string (newlines, $, backticks, !, unicode); only NUL cannot be passed, and
 * no environment value can hold one. A library would add a dependency for these three lines
 * (shell-quote's quote() targets its own parser and has had injection bugs), so there is none.
 */
export function shellQuote(value: string): string {
  if (value.includes('\0')) throw new Error('a shell value cannot contain a NUL byte');
  return SAFE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

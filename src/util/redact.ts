/** Environment variable names whose values are secrets whatever they look like. */
const SECRET_NAME = /(pass(word|wd)?|secret|token|credential|api[_-]?key|access[_-]?key|private[_-]?key|auth)/i;

/** user:password@ or user@ in a URL: the part before the host. */
const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)([^@/\s]+)@/i;

export const REDACTED = '***';

/** Removes credentials from a proxy-style URL: http://user:pw@proxy:3128 -> http://***@proxy:3128. */
export function redactUrl(value: string): string {
  return value.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
}

/** The value of an environment variable as it may appear in a report, a log or a snapshot. */
export function redactEnvValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return value === '' ? '' : REDACTED;
  return value
    .split(/([,;\s]+)/)
    .map((part) => redactUrl(part))
    .join('');
}

export function redactEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) out[name] = redactEnvValue(name, value);
  return out;
}

/**
 * A launch script as it may be stored in a snapshot: the values of secret-named assignments
 * (`export HF_TOKEN=...`), `--api-key` values and credentials in URLs replaced by ***. The
 * lines stay where they are, so a replay reports the same line numbers.
 */
export function redactScript(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/(^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"?|'[^']*'?|[^\s;&|)]+)/g, (whole, before: string, name: string) =>
          SECRET_NAME.test(name) ? `${before}${name}=${REDACTED}` : whole,
        )
        .replace(/(--api[-_]key(?:=|\s+))("[^"]*"|'[^']*'|[^\s\\]+)/g, `$1${REDACTED}`)
        .replace(/([a-z][a-z0-9+.-]*:\/\/)([^@/\s'"]+)@/gi, `$1${REDACTED}@`),
    )
    .join('\n');
}

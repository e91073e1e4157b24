/*
 * The one redaction policy of qprep. Whatever qprep prints or stores (every report format, the
 * error documents, the snapshot) passes through a Redactor, which hides:
 *  - the value of a variable, flag, JSON key or URL query parameter whose name says it holds a
 *    secret (isSecretName: HF_TOKEN, --api-key, "password", ?access_token=, MYSQL_PWD, ...);
 *  - the whole value of a few variables that carry secrets inside options (JAVA_TOOL_OPTIONS,
 *    KUBECONFIG_DATA, ...);
 *  - credentials in a URL wherever the URL stands in the text (scheme://user:pw@host);
 *  - the path of a webhook URL (Slack, Teams, DingTalk, Feishu, WeCom, Discord...), which is the secret;
 *  - the credentials of an Authorization header and of any "Bearer" token;
 *  - once a value was hidden anywhere, that same value everywhere else it appears (a check that
 *    quotes a flag's value in a message cannot show it in clear).
 * docs/security.md lists the rules; test/robustness/secrets.test.ts plants one secret of each
 * class and greps every byte qprep writes.
 */

export const REDACTED = '***';

/** Parts of a name that mark a secret wherever they stand in it. */
const SECRET_PART = /pass(word|wd|phrase)|secret|credential|api_?key|access_?key|private_?key|cookie|webhook/;
/** Words that mark a secret when the name ends with them: HF_TOKEN, API_KEY, MYSQL_PWD, SESSION. */
const SECRET_LAST_WORDS = new Set(['token', 'key', 'pwd', 'pass', 'auth', 'authorization', 'session', 'sessionid', 'signature', 'sig', 'jwt', 'bearer']);
/** Variables that carry secrets inside their value (JVM system properties, a whole kubeconfig). */
const SECRET_VARIABLES = new Set(['KUBECONFIG_DATA', 'JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS', 'MAVEN_OPTS', 'GRADLE_OPTS']);
/** The shell's working directories: named like a password variable, never one. */
const NOT_SECRET = new Set(['PWD', 'OLDPWD']);

/** "hfToken", "HF_TOKEN", "--hf-token", "hf.token" -> ["hf", "token"] */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether a variable, flag, JSON key or query parameter name says that its value is a secret.
 * Counts are not secrets: "num_speculative_tokens" and "--max-num-batched-tokens" keep their values.
 */
export function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, '');
  if (bare === '' || NOT_SECRET.has(bare.toUpperCase())) return false;
  if (SECRET_VARIABLES.has(bare.toUpperCase())) return true;
  const words = wordsOf(bare);
  if (SECRET_PART.test(words.join('_'))) return true;
  const last = words[words.length - 1];
  return last !== undefined && (SECRET_LAST_WORDS.has(last) || last.endsWith('token') || last.endsWith('pwd'));
}

/** A value worth hiding elsewhere too: not empty, not a reference to another variable, not already hidden. */
function isLiteralSecret(value: string): boolean {
  return value.length >= 4 && !value.includes(REDACTED) && !/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value);
}

/** The value without its shell quotes. */
function unquoted(value: string): string {
  const first = value[0];
  if ((first === '"' || first === "'") && value.length >= 2 && value.endsWith(first)) return value.slice(1, -1);
  return value;
}

/** A hidden value that keeps its quotes and its line breaks, so that a script keeps its line numbers and its syntax. */
function hidden(value: string): string {
  const newlines = '\n'.repeat((value.match(/\n/g) ?? []).length);
  const first = value[0];
  if (first === '"' || first === "'") return `${first}${REDACTED}${newlines}${value.endsWith(first) && value.length >= 2 ? first : ''}`;
  return `${REDACTED}${newlines}`;
}

/** A shell word: quoted (possibly over several lines), or bare up to a space, quote or shell operator. */
const WORD = String.raw`"(?:[^"\\]|\\[\s\S])*"?|'[^']*'?|[^\s'";&|()\\,]+`;
/** NAME=value: shell assignments, env-style lists, JVM -Dname=value. */
const ASSIGNMENT = new RegExp(String.raw`(^|[\s;&|(,'"])(-D)?([A-Za-z_][A-Za-z0-9_.-]*)=(${WORD})`, 'g');
/** --flag value and --flag=value (a value never starts with "-"; a line continuation may come between). */
const FLAG = new RegExp(String.raw`(^|[\s;&|(])(--?[A-Za-z][A-Za-z0-9_-]*)(=|[ \t]+(?:\\\r?\n[ \t]*)*)(?!-)(${WORD})`, 'g');
/** "key": value in JSON, also with the quotes escaped inside a shell string (\"key\": \"value\"). */
const JSON_MEMBER = /(\\?")([^"\\\n]{1,200})(\\?"\s*:\s*)(\\?"(?:[^"\\\n]|\\(?!")[^\n])*\\?"|[^\s,}\]"]+)/g;
/**
 * scheme://userinfo@ anywhere in a text; the scheme starts at the first letter of a run of
 * scheme characters (group 1 keeps what comes before it in the run). Each run is tried once, and
 * read at once (the lookahead and its back-reference): trying the scheme at every letter of a
 * run took the square of its length, 2 hours for a 1 MiB launch script of letters.
 */
const URL_USERINFO = /(?<![a-z0-9+.-])([0-9+.-]*)(?=([a-z][a-z0-9+.-]*))\2(:\/\/)([^@/\s'"?#]+)@/gi;
/** ?name=value and &name=value in a URL. */
const QUERY_PARAMETER = /([?&])([A-Za-z0-9_.-]{1,100})=([^&#\s'"]+)/g;
/** An http(s) URL with a path; a webhook's path is its secret (hooks.slack.com/services/..., /api/webhooks/..., /robot/send?...). */
const HTTP_URL = /(https?:\/\/([^/\s'"]+))(\/[^\s'"]*)/gi;
const WEBHOOK = /hook|robot\/send/i;
const AUTHORIZATION_HEADER = /(authorization\s*:\s*)((?:basic|bearer|digest|token|negotiate)\s+)?([^\s'"]+)/gi;
const BEARER = /(\bbearer\s+)([A-Za-z0-9._~+/=-]+)/gi;

/**
 * Hides secrets in text by the policy above, and remembers each value it hid so that the same
 * value is hidden wherever else it appears. One instance per run: what the launch script and
 * the environment taught it applies to the report, the snapshot and the error documents.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private ordered: string[] | null = [];

  private learn(value: string): void {
    const bare = unquoted(value);
    if (isLiteralSecret(bare) && !this.secrets.has(bare)) {
      this.secrets.add(bare);
      this.ordered = null;
    }
  }

  /**
   * Text by the patterns only, learning every value they hide. `flags`: whether "--name value"
   * is read as a flag and its value, as in a script or an option list; in qprep's own messages
   * ("--api-key is given twice") it is not, and the values learnt from the script do the work.
   */
  private patterns(text: string, flags = true): string {
    return text
      .replace(ASSIGNMENT, (whole, before: string, d: string | undefined, name: string, value: string) => {
        if (!isSecretName(name)) return whole;
        this.learn(value);
        return `${before}${d ?? ''}${name}=${hidden(value)}`;
      })
      .replace(FLAG, (whole, before: string, flag: string, separator: string, value: string) => {
        if (!flags || !isSecretName(flag)) return whole;
        this.learn(value);
        return `${before}${flag}${separator}${hidden(value)}`;
      })
      .replace(JSON_MEMBER, (whole, open: string, key: string, colon: string, value: string) => {
        if (!isSecretName(key)) return whole;
        const quote = value.startsWith('\\"') ? '\\"' : value.startsWith('"') ? '"' : '';
        this.learn(quote ? value.slice(quote.length, value.length - quote.length) : value);
        return `${open}${key}${colon}${quote}${REDACTED}${quote}`;
      })
      .replace(AUTHORIZATION_HEADER, (_whole, header: string, scheme: string | undefined, value: string) => {
        this.learn(value);
        return `${header}${scheme ?? ''}${REDACTED}`;
      })
      .replace(BEARER, (whole, scheme: string, value: string) => {
        if (value === REDACTED) return whole;
        this.learn(value);
        return `${scheme}${REDACTED}`;
      })
      .replace(URL_USERINFO, (_whole, before: string, scheme: string, separator: string, userinfo: string) => {
        const password = userinfo.indexOf(':');
        if (password !== -1) this.learn(userinfo.slice(password + 1));
        return `${before}${scheme}${separator}${REDACTED}@`;
      })
      .replace(QUERY_PARAMETER, (whole, separator: string, name: string, value: string) => {
        if (!isSecretName(name)) return whole;
        this.learn(value);
        return `${separator}${name}=${REDACTED}`;
      })
      .replace(HTTP_URL, (whole, origin: string, host: string, path: string) => {
        if (!WEBHOOK.test(host) && !WEBHOOK.test(path)) return whole;
        this.learn(path);
        return `${origin}/${REDACTED}`;
      });
  }

  /** Every value learnt so far replaced wherever it appears. */
  private literals(text: string): string {
    if (this.secrets.size === 0) return text;
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** Text that came in: a script, an option list, an environment value. */
  text(text: string): string {
    return this.literals(this.patterns(text));
  }

  /** Text qprep wrote about what came in: a message, a report field. */
  message(text: string): string {
    return this.literals(this.patterns(text, false));
  }

  /**
   * A launch script as it may be stored in a snapshot: every line stays where it was, so a
   * replay reports the same line numbers.
   */
  script(text: string): string {
    return this.text(text);
  }

  /** The value of an environment variable as it may appear in a report, a log or a snapshot. */
  envValue(name: string, value: string): string {
    if (isSecretName(name)) {
      if (value === '') return '';
      this.learn(value);
      return REDACTED;
    }
    return this.text(value);
  }

  env(env: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) out[name] = this.envValue(name, value);
    return out;
  }

  /**
   * A whole document (a report, a snapshot): every string redacted, and a string member whose
   * name says it is a secret hidden whole. Keys are names, not values: they stay.
   */
  deep<T>(value: T): T {
    return this.walk(value, undefined) as T;
  }

  private walk(value: unknown, key: string | undefined): unknown {
    if (typeof value === 'string') {
      if (key !== undefined && value !== '' && isSecretName(key)) {
        this.learn(value);
        return REDACTED;
      }
      return this.message(value);
    }
    if (Array.isArray(value)) return value.map((item) => this.walk(item, undefined));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) out[name] = this.walk(member, name);
      return out;
    }
    return value;
  }
}

/** Removes credentials from a URL: http://user:pw@proxy:3128 -> http://***@proxy:3128. */
export function redactUrl(value: string): string {
  return value.replace(URL_USERINFO, `$1$2$3${REDACTED}@`);
}

/** Text by the policy, with nothing learnt before (a message built before any input was read). */
export function redactMessage(text: string): string {
  return new Redactor().message(text);
}

export function redactEnvValue(name: string, value: string): string {
  return new Redactor().envValue(name, value);
}

export function redactEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  return new Redactor().env(env);
}

export function redactScript(text: string): string {
  return new Redactor().script(text);
}

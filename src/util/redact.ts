import { credentialCommands, isSecret, tokenPattern } from './secrets.js';

/*
 * The one redaction policy of qprep. Whatever qprep prints or stores (every report format, the
 * error documents, the snapshot) passes through a Redactor. It finds the values that may be
 * secrets and what they were found with, and `isSecret` (src/util/secrets.ts) decides:
 *  - the value of a variable, flag, JSON key, HTTP header, Python environment assignment
 *    (os.environ['HF_TOKEN'] = ...) or URL query parameter, judged by its name (HF_TOKEN,
 *    --api-key, X-Api-Key, Cookie, "password", ?access_token=, DB_PW, ...), also inside the
 *    quoted value of another variable (AccountKey= in a connection string);
 *  - the value of a credential flag of a command that takes one (curl -u, sshpass -p,
 *    mysql -pPW, docker login -p, ...);
 *  - a token of a known form wherever it stands (ghp_, glpat-, hf_, AKIA, xoxb-, sk-, AIza, JWTs,
 *    private keys);
 *  - credentials in a URL wherever the URL stands in the text (scheme://user:pw@host);
 *  - the path of a webhook URL (Slack, Teams, DingTalk, Feishu, WeCom, Discord...), which is the secret;
 *  - the credentials of an Authorization header and of any "Bearer" token;
 *  - once a value was hidden anywhere, that same value everywhere else it appears (a check that
 *    quotes a flag's value in a message cannot show it in clear).
 * docs/security.md lists the rules; test/robustness/secrets.test.ts plants secrets of each
 * class and greps every byte qprep writes.
 */

export const REDACTED = '***';

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
/** os.environ['NAME'] = value, and any x["NAME"] = value of a script or a python -c. */
const SUBSCRIPT_ASSIGNMENT = new RegExp(String.raw`(\[\s*)(['"])([A-Za-z_][A-Za-z0-9_.-]*)\2(\s*\]\s*=(?!=)\s*)(${WORD})`, 'g');
/** os.environ.setdefault('NAME', value), os.putenv('NAME', value). */
const ENVIRONMENT_CALL = new RegExp(String.raw`(\b(?:setdefault|putenv|setenv)\(\s*)(['"])([A-Za-z_][A-Za-z0-9_.-]*)\2(\s*,\s*)(${WORD})`, 'g');
/** --flag value and --flag=value (a value never starts with "-"; a line continuation may come between). */
const FLAG = new RegExp(String.raw`(^|[\s;&|(])(--?[A-Za-z][A-Za-z0-9_-]*)(=|[ \t]+(?:\\\r?\n[ \t]*)*)(?!-)(${WORD})`, 'g');
/** "key": value in JSON, also with the quotes escaped inside a shell string (\"key\": \"value\"). */
const JSON_MEMBER = /(\\?")([^"\\\n]{1,200})(\\?"\s*:\s*)(\\?"(?:[^"\\\n]|\\(?!")[^\n])*\\?"|[^\s,}\]"]+)/g;
/** Name: value, an HTTP header (curl -H "X-Api-Key: ...", "Cookie: ...") or a YAML member, up to the end of the line or its quote. */
const HEADER = /(^|[\s"'`])([A-Za-z][A-Za-z0-9_-]{0,100})([ \t]*:[ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"'`][^\r\n"'`]*)/gm;
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
/** A token of a known form, wherever it stands. */
const TOKEN = tokenPattern();
/** A program of CREDENTIAL_FLAGS as a command (a path to it too), followed by its arguments. */
const CREDENTIAL_COMMAND = new RegExp(String.raw`(?<![\w./-])(?:[\w.-]*/)*(${credentialCommands().map((c) => c.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})(?=[ \t])`, 'g');
/** The next piece of a command line: blanks, a line continuation, a quoted word or a bare word. */
const COMMAND_PIECE = /[ \t]+|\\\r?\n|"(?:[^"\\]|\\[\s\S])*"|'[^']*'|[^\s'"`;&|()<>\\]+/y;
/** Words read after a command: a command line is not longer (and a scan must stay linear). */
const MAX_COMMAND_WORDS = 200;

interface Word {
  start: number;
  end: number;
  text: string;
}

/** The words of the command that starts at `from`, up to its end: a newline, an operator, or the closing quote of a string around it. */
function commandWords(text: string, from: number): Word[] {
  const words: Word[] = [];
  let at = from;
  let afterBlank = true;
  while (words.length < MAX_COMMAND_WORDS) {
    COMMAND_PIECE.lastIndex = at;
    const piece = COMMAND_PIECE.exec(text);
    if (!piece) break;
    const first = piece[0][0]!;
    const blank = first === ' ' || first === '\t' || first === '\\';
    // a quote glued to the word before it closes a string the command stands in ("sh -c 'sshpass -p x ssh h'")
    if (!blank && !afterBlank && (first === '"' || first === "'")) break;
    if (!blank) words.push({ start: at, end: at + piece[0].length, text: piece[0] });
    afterBlank = blank;
    at += piece[0].length;
  }
  return words;
}

/** A place in a text to hide, and the value it holds. */
interface Hide {
  start: number;
  end: number;
  value: string;
}

/** The values of the command line's flags that isSecret calls secrets: -u VALUE, -pVALUE, --flag=VALUE. */
function credentialArguments(command: string, words: readonly Word[]): Hide[] {
  const found: Hide[] = [];
  const judge = (index: number, flag: string, glued: boolean, start: number, end: number, value: string) => {
    const before = words.slice(0, index).map((w) => unquoted(w.text));
    if (isSecret({ value: unquoted(value), ...(glued ? {} : { name: flag }), flag: { command, before, flag, glued } })) found.push({ start, end, value });
  };
  words.forEach((word, index) => {
    const text = word.text;
    if (!/^-[A-Za-z0-9-]/.test(text)) return;
    const equals = text.indexOf('=');
    if (text.startsWith('--') && equals > 2) return judge(index, text.slice(0, equals), false, word.start + equals + 1, word.end, text.slice(equals + 1));
    const next = words[index + 1];
    if (next && !next.text.startsWith('-')) judge(index, text, false, next.start, next.end, next.text);
    if (/^-[A-Za-z]./.test(text)) judge(index, text.slice(0, 2), true, word.start + 2, word.end, text.slice(2));
  });
  return found;
}

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

  /** A hidden user:password (curl -u, smbclient -U user%password): the password alone is learnt too. */
  private learnCredential(value: string): void {
    this.learn(value);
    const bare = unquoted(value);
    const separator = bare.search(/[:%]/);
    if (separator !== -1) this.learn(bare.slice(separator + 1));
  }

  /**
   * Text by the patterns only, learning every value they hide. `flags`: whether "--name value"
   * is read as a flag and its value, as in a script or an option list; in qprep's own messages
   * ("--api-key is given twice") it is not, and the values learnt from the script do the work.
   */
  private patterns(text: string, flags = true): string {
    let out = this.commandCredentials(text);
    out = this.assignments(out);
    out = out
      .replace(SUBSCRIPT_ASSIGNMENT, (whole, open: string, quote: string, name: string, equals: string, value: string) => this.named(whole, name, value, `${open}${quote}${name}${quote}${equals}`))
      .replace(ENVIRONMENT_CALL, (whole, call: string, quote: string, name: string, comma: string, value: string) => this.named(whole, name, value, `${call}${quote}${name}${quote}${comma}`));
    // --name=value is a flag and its value wherever it stands; "--name value" only where flags are read
    out = out.replace(FLAG, (whole, before: string, flag: string, separator: string, value: string) =>
      flags || separator === '=' ? this.named(whole, flag, value, `${before}${flag}${separator}`) : whole,
    );
    out = out.replace(JSON_MEMBER, (whole, open: string, key: string, colon: string, value: string) => {
      const quote = value.startsWith('\\"') ? '\\"' : value.startsWith('"') ? '"' : '';
      const bare = quote ? value.slice(quote.length, value.length - quote.length) : value;
      if (!isSecret({ name: key, value: bare })) return whole;
      this.learn(bare);
      return `${open}${key}${colon}${quote}${REDACTED}${quote}`;
    });
    return this.headersAndUrls(out);
  }

  /** `prefix` + the value hidden when isSecret says the value of `name` is a secret; `whole` otherwise. */
  private named(whole: string, name: string, value: string, prefix: string): string {
    if (!isSecret({ name, value: unquoted(value) })) return whole;
    this.learn(value);
    return `${prefix}${hidden(value)}`;
  }

  /** NAME=value, and the assignments inside the quoted value of one that is not secret (AccountKey= in a connection string). */
  private assignments(text: string): string {
    return text.replace(ASSIGNMENT, (whole, before: string, d: string | undefined, name: string, value: string) => {
      const prefix = `${before}${d ?? ''}${name}=`;
      if (isSecret({ name, value: unquoted(value) })) {
        this.learn(value);
        return `${prefix}${hidden(value)}`;
      }
      const quote = value[0];
      if ((quote !== '"' && quote !== "'") || value.length < 2 || !value.endsWith(quote)) return whole;
      return `${prefix}${quote}${this.assignments(value.slice(1, -1))}${quote}`;
    });
  }

  /** The credential flags of the commands of CREDENTIAL_FLAGS: curl -u, sshpass -p, mysql -pPW, docker login -p. */
  private commandCredentials(text: string): string {
    const hides: Hide[] = [];
    for (const match of text.matchAll(CREDENTIAL_COMMAND)) hides.push(...credentialArguments(match[1]!, commandWords(text, match.index + match[0].length)));
    if (hides.length === 0) return text;
    let out = text;
    // from the end, so that the places before stay where they were; a place inside one hidden already is left
    let limit = Infinity;
    for (const hide of hides.sort((a, b) => b.start - a.start)) {
      if (hide.end > limit) continue;
      this.learnCredential(hide.value);
      out = `${out.slice(0, hide.start)}${hidden(hide.value)}${out.slice(hide.end)}`;
      limit = hide.start;
    }
    return out;
  }

  /** Headers, Bearer tokens, URLs and their parameters, webhooks, and tokens of a known form anywhere. */
  private headersAndUrls(text: string): string {
    return text
      .replace(AUTHORIZATION_HEADER, (_whole, header: string, scheme: string | undefined, value: string) => {
        this.learn(value);
        return `${header}${scheme ?? ''}${REDACTED}`;
      })
      .replace(BEARER, (whole, scheme: string, value: string) => {
        if (value === REDACTED) return whole;
        this.learn(value);
        return `${scheme}${REDACTED}`;
      })
      .replace(HEADER, (whole, before: string, name: string, colon: string, value: string) => {
        if (value.includes(REDACTED) || !isSecret({ name, value: unquoted(value.trim()) })) return whole;
        this.learn(value.trim());
        return `${before}${name}${colon}${hidden(value.trim())}`;
      })
      .replace(URL_USERINFO, (_whole, before: string, scheme: string, separator: string, userinfo: string) => {
        const password = userinfo.indexOf(':');
        if (password !== -1) this.learn(userinfo.slice(password + 1));
        return `${before}${scheme}${separator}${REDACTED}@`;
      })
      .replace(QUERY_PARAMETER, (whole, separator: string, name: string, value: string) => {
        if (!isSecret({ name, value })) return whole;
        this.learn(value);
        return `${separator}${name}=${REDACTED}`;
      })
      .replace(HTTP_URL, (whole, origin: string, host: string, path: string) => {
        if (!WEBHOOK.test(host) && !WEBHOOK.test(path)) return whole;
        this.learn(path);
        return `${origin}/${REDACTED}`;
      })
      .replace(TOKEN, (token) => {
        if (!isSecret({ value: token })) return token;
        this.learn(token);
        return hidden(token);
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
    if (isSecret({ name, value })) {
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
      if (key !== undefined && isSecret({ name: key, value })) {
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

/**
 * The character-level reader of a launch script: quotes, continuations, expansions,
 * operators, redirections and here-documents, each token with its line.
 */
import type { NoteSink, Token, Word, WordPart } from './types.js';

const OPERATOR_START = new Set([';', '&', '|', '(', ')', '<', '>']);
const CONTROL_OPERATORS = [';;&', ';;', ';&', '&&', '||', '|&'];
/** Longest first, so that "<<-" is not read as "<<" then "-". */
const REDIRECTIONS = ['<<<', '<<-', '&>>', '<<', '<&', '<>', '>>', '>&', '>|', '&>', '<', '>'];
/** A shell variable name. */
export const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters with no meaning to the word reader outside quotes, and inside double quotes. */
const PLAIN_RUN = /[^\s;&|()<>\\'"`$~]+/y;
const QUOTED_RUN = /[^"\\$`\n]+/y;

function isBlankChar(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
}

export function linesIn(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function ansiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|[0-7]{1,3}|.)/gs, (_, esc: string) => {
    switch (esc[0]) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'a':
        return '\x07';
      case 'b':
        return '\b';
      case 'e':
      case 'E':
        return '\x1b';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case 'x':
        return esc.length > 1 ? String.fromCharCode(parseInt(esc.slice(1), 16)) : '\\x';
      case 'u':
        return esc.length > 1 ? String.fromCharCode(parseInt(esc.slice(1), 16)) : '\\u';
      default:
        if (/^[0-7]+$/.test(esc)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
        return esc;
    }
  });
}

/** Appends literal text to the word being read (joined to the last part when quoted alike). */
type PushText = (value: string, quoted: boolean) => void;

/**
 * The most tokens a script may have: each piece of a word (a plain run, a quoted string, a
 * variable or an expansion; a word is at least one) and each operator (`;`, `&&`, `|`, `>`, a
 * line end) counts one. Every token costs the reader and the checks from tens to hundreds of
 * bytes whatever its length, so the byte cap alone let 1 MiB of one-letter words cost 500 MB;
 * the longest of vllm-ascend's 299 documented launch scripts has 173 words in 206 lines.
 */
export const MAX_SCRIPT_TOKENS = 16_384;

/**
 * How deep `${A:-${B:-...}}` operands are read: deeper ones are left unevaluated. Each level is
 * read again by a reader of its own, so an unbounded depth costs time and stack in the square of it.
 */
export const MAX_EXPANSION_DEPTH = 16;

/** The tokens read so far, shared by the readers of one script (the operands of `${x:-...}` included). */
interface TokenBudget {
  used: number;
}

/** Thrown inside the reader when a script has more than MAX_SCRIPT_TOKENS tokens: reading stops there. */
class TooManyTokens extends Error {
  constructor() {
    super(`more than ${MAX_SCRIPT_TOKENS} tokens`);
  }
}

/** The character-level reader. One instance reads one text (a script, or the operand of `${x:-...}`). */
class Lexer {
  private i = 0;
  line: number;
  readonly tokens: Token[] = [];
  private pendingHeredocs: Array<{ delimiter: string; stripTabs: boolean; line: number }> = [];
  /** words since the last command separator: a continuation into a blank line matters only inside a command */
  private wordsInCommand = 0;

  constructor(
    private readonly text: string,
    startLine: number,
    private readonly note: NoteSink,
    private readonly budget: TokenBudget = { used: 0 },
    private readonly depth = 0,
  ) {
    this.line = startLine;
  }

  /** Tokenizes the whole text. */
  run(): void {
    const text = this.text;
    while (this.i < text.length) {
      const c = text[this.i]!;
      if (isBlankChar(c)) {
        this.i++;
        continue;
      }
      if (c === '\\' && text[this.i + 1] === '\n') {
        this.continuation();
        continue;
      }
      if (c === '\n') {
        // blank and comment lines add no token: a line end after a line end ends nothing more
        const last = this.tokens[this.tokens.length - 1];
        if (last?.kind !== 'op' || last.op !== '\n') this.pushOperator({ kind: 'op', op: '\n', line: this.line });
        this.i++;
        this.line++;
        this.wordsInCommand = 0;
        if (this.pendingHeredocs.length > 0) this.readHeredocBodies();
        continue;
      }
      if (c === '#') {
        const end = text.indexOf('\n', this.i);
        this.i = end === -1 ? text.length : end;
        continue;
      }
      if (OPERATOR_START.has(c) && !this.startsProcessSubstitution()) {
        this.operator(null);
        continue;
      }
      const startLine = this.line;
      const start = this.i;
      const parts = this.readWordParts(false);
      if (this.i === start) {
        // not a word character after all (cannot happen with the sets above); never loop
        this.i++;
        continue;
      }
      const word: Word = { parts, line: startLine, source: text.slice(start, this.i) };
      // "2>file": digits right before a redirection are its file descriptor
      const next = text[this.i];
      if ((next === '<' || next === '>') && parts.length === 1 && parts[0]!.kind === 'text' && !parts[0]!.quoted && /^\d+$/.test(parts[0]!.text)) {
        this.operator(parts[0]!.text);
        continue;
      }
      this.tokens.push({ kind: 'word', word });
      this.wordsInCommand++;
    }
    if (this.pendingHeredocs.length > 0) {
      const first = this.pendingHeredocs[0]!;
      this.note(first.line, 'error', 'here-document', `here-document <<${first.delimiter} is not closed: the script ends first`);
    }
  }

  private continuation(): void {
    const backslashLine = this.line;
    this.i += 2;
    this.line++;
    const rest = this.text.slice(this.i, this.text.indexOf('\n', this.i) === -1 ? this.text.length : this.text.indexOf('\n', this.i));
    if (this.wordsInCommand > 0 && rest.trim() === '') {
      const after = this.i < this.text.length ? `line ${backslashLine + 1} is blank` : 'the script ends there';
      this.note(
        backslashLine,
        'warning',
        'trailing backslash',
        `line ${backslashLine} ends with a backslash and ${after}: the command ends by luck, and a line added below it would become part of it`,
      );
    }
  }

  private startsProcessSubstitution(): boolean {
    const c = this.text[this.i];
    return (c === '<' || c === '>') && this.text[this.i + 1] === '(';
  }

  /** An operator or a redirection at `this.i`; `fd` is the descriptor written before it. */
  private operator(fd: string | null): void {
    const text = this.text;
    const line = this.line;
    if (fd === null) {
      for (const op of CONTROL_OPERATORS) {
        if (text.startsWith(op, this.i)) {
          this.i += op.length;
          this.pushOperator({ kind: 'op', op, line });
          this.wordsInCommand = 0;
          return;
        }
      }
    }
    const redirection = REDIRECTIONS.find((op) => text.startsWith(op, this.i));
    if (redirection === undefined) {
      // ; & | ( )
      const one = text[this.i]!;
      this.i++;
      this.pushOperator({ kind: 'op', op: one, line });
      if (one !== '(' && one !== ')') this.wordsInCommand = 0;
      return;
    }
    this.i += redirection.length;
    while (isBlankChar(text[this.i])) this.i++;
    let target: Word | null = null;
    const next = text[this.i];
    if (next !== undefined && next !== '\n' && !(OPERATOR_START.has(next) && !this.startsProcessSubstitution())) {
      const start = this.i;
      const targetLine = this.line;
      const parts = this.readWordParts(false);
      target = { parts, line: targetLine, source: text.slice(start, this.i) };
    }
    if ((redirection === '<<' || redirection === '<<-') && target) {
      const delimiter = target.parts.map((p) => (p.kind === 'text' ? p.text : p.source)).join('');
      this.pendingHeredocs.push({ delimiter, stripTabs: redirection === '<<-', line });
    }
    this.pushOperator({ kind: 'redir', op: `${fd ?? ''}${redirection}`, line, target });
  }

  private readHeredocBodies(): void {
    const text = this.text;
    while (this.pendingHeredocs.length > 0) {
      const doc = this.pendingHeredocs[0]!;
      let closed = false;
      while (this.i < text.length) {
        const end = text.indexOf('\n', this.i);
        const raw = text.slice(this.i, end === -1 ? text.length : end);
        this.i = end === -1 ? text.length : end + 1;
        this.line++;
        const lineText = (doc.stripTabs ? raw.replace(/^\t+/, '') : raw).replace(/\r$/, '');
        if (lineText === doc.delimiter) {
          closed = true;
          break;
        }
      }
      if (!closed) {
        this.note(doc.line, 'error', 'here-document', `here-document <<${doc.delimiter} is not closed: the script ends first`);
        this.pendingHeredocs = [];
        return;
      }
      this.pendingHeredocs.shift();
    }
  }

  /**
   * Reads the pieces of one word from `this.i`. Outside quotes the word ends at a blank, a
   * newline or an operator; with `toEnd` (the operand of `${x:-...}`) it runs to the end of
   * the text and blanks are part of it.
   */
  readWordParts(toEnd: boolean): WordPart[] {
    const text = this.text;
    const parts: WordPart[] = [];
    const pushText: PushText = (value, quoted) => {
      const last = parts[parts.length - 1];
      if (last && last.kind === 'text' && last.quoted === quoted) last.text += value;
      else parts.push({ kind: 'text', text: value, quoted });
    };
    const wordStart = this.i;
    while (this.i < text.length) {
      this.spend(parts);
      const c = text[this.i]!;
      if (!toEnd && (isBlankChar(c) || c === '\n')) break;
      if (!toEnd && OPERATOR_START.has(c)) {
        const part = this.readParenthesizedPart(parts);
        if (!part) break;
        parts.push(part);
        continue;
      }
      if (c === '~' && this.i === wordStart && !toEnd) {
        const match = /^~([A-Za-z0-9._-]*)(?=\/|$|[\s;&|<>()])/.exec(text.slice(this.i, this.i + 64));
        if (match) {
          parts.push({ kind: 'tilde', user: match[1]!, source: match[0] });
          this.i += match[0].length;
          continue;
        }
      }
      if (c === '\\') this.readBackslash(toEnd, pushText);
      else if (c === "'") this.readSingleQuoted(pushText);
      else if (c === '"') this.readDoubleQuoted(parts, pushText);
      else if (c === '`') parts.push(this.readBackticks(false));
      else if (c === '$') {
        const part = this.readDollar(false, pushText);
        if (part) parts.push(part);
      } else if (c === '\n') {
        this.line++;
        pushText(c, false);
        this.i++;
      } else {
        // a run of ordinary characters in one step: a 10 MB script stays linear and cheap
        PLAIN_RUN.lastIndex = this.i;
        const run = PLAIN_RUN.exec(text);
        const chunk = run && run.index === this.i && run[0].length > 0 ? run[0] : c;
        pushText(chunk, false);
        this.i += chunk.length;
      }
    }
    // a word is at least one piece, even an empty one
    this.budget.used += Math.max(1, parts.length);
    this.spend([]);
    return parts;
  }

  /** Stops reading once the script's tokens, with the pieces of the word being read, pass the cap. */
  private spend(parts: readonly WordPart[]): void {
    if (this.budget.used + parts.length > MAX_SCRIPT_TOKENS) throw new TooManyTokens();
  }

  /** An operator or a redirection: one token of the budget (a redirection's target is a word of its own). */
  private pushOperator(token: Token): void {
    this.budget.used++;
    this.spend([]);
    this.tokens.push(token);
  }

  /**
   * An operator character inside a word that does not end it: `<(...)` / `>(...)` (process
   * substitution) or the `( ... )` of `NAME=( ... )` (an array). Undefined: the word ends here.
   */
  private readParenthesizedPart(parts: readonly WordPart[]): WordPart | undefined {
    const text = this.text;
    const c = text[this.i];
    if (this.startsProcessSubstitution()) {
      const start = this.i;
      const startLine = this.line;
      this.i++;
      this.skipBalanced('(', ')', startLine);
      return { kind: 'dynamic', what: 'process-substitution', quoted: false, source: text.slice(start, this.i) };
    }
    if (c === '(' && parts.length === 1 && parts[0]!.kind === 'text' && !parts[0]!.quoted && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(parts[0]!.text)) {
      const start = this.i;
      this.skipBalanced('(', ')', this.line);
      return { kind: 'dynamic', what: 'array', quoted: false, source: text.slice(start, this.i) };
    }
    return undefined;
  }

  /** `\` outside quotes: a line continuation, a trailing backslash, or the next character quoted. */
  private readBackslash(toEnd: boolean, pushText: PushText): void {
    const next = this.text[this.i + 1];
    if (next === '\n') {
      if (toEnd) {
        this.i += 2;
        this.line++;
      } else this.continuation();
      return;
    }
    if (next === undefined) {
      pushText('\\', false);
      this.i++;
      return;
    }
    pushText(next, true);
    this.i += 2;
  }

  /** `'...'`: the text as it is; one never closed takes the rest of the script (and is noted). */
  private readSingleQuoted(pushText: PushText): void {
    const text = this.text;
    const end = text.indexOf("'", this.i + 1);
    const startLine = this.line;
    if (end === -1) {
      this.note(startLine, 'error', 'unterminated quote', `the single quote opened on line ${startLine} is never closed: bash refuses the script`);
      pushText(text.slice(this.i + 1), true);
      this.line += linesIn(text.slice(this.i));
      this.i = text.length;
      return;
    }
    const body = text.slice(this.i + 1, end);
    pushText(body, true);
    this.line += linesIn(body);
    this.i = end + 1;
  }

  private readDoubleQuoted(parts: WordPart[], pushText: PushText): void {
    const text = this.text;
    const startLine = this.line;
    this.i++;
    let closed = false;
    while (this.i < text.length) {
      this.spend(parts);
      const c = text[this.i]!;
      if (c === '"') {
        this.i++;
        closed = true;
        break;
      }
      if (c === '\\') {
        const next = text[this.i + 1];
        if (next === '\n') {
          this.i += 2;
          this.line++;
          continue;
        }
        if (next !== undefined && '$`"\\'.includes(next)) {
          pushText(next, true);
          this.i += 2;
          continue;
        }
        pushText('\\', true);
        this.i++;
        continue;
      }
      if (c === '$') {
        const part = this.readDollar(true, pushText);
        if (part) parts.push(part);
        continue;
      }
      if (c === '`') {
        parts.push(this.readBackticks(true));
        continue;
      }
      if (c === '\n') {
        this.line++;
        pushText(c, true);
        this.i++;
        continue;
      }
      QUOTED_RUN.lastIndex = this.i;
      const run = QUOTED_RUN.exec(text);
      const chunk = run && run.index === this.i && run[0].length > 0 ? run[0] : c;
      pushText(chunk, true);
      this.i += chunk.length;
    }
    // "" is a word (an empty argument) even with nothing in it
    if (parts.length === 0) pushText('', true);
    if (!closed) this.note(startLine, 'error', 'unterminated quote', `the double quote opened on line ${startLine} is never closed: bash refuses the script`);
  }

  private readBackticks(quoted: boolean): WordPart {
    const text = this.text;
    const start = this.i;
    const startLine = this.line;
    this.i++;
    while (this.i < text.length && text[this.i] !== '`') {
      if (text[this.i] === '\\') this.i++;
      else if (text[this.i] === '\n') this.line++;
      this.i++;
    }
    if (this.i >= text.length) {
      this.note(startLine, 'error', 'unterminated quote', `the backquote opened on line ${startLine} is never closed: bash refuses the script`);
      this.i = text.length;
    } else this.i++;
    return { kind: 'dynamic', what: 'command-substitution', quoted, source: text.slice(start, this.i) };
  }

  /**
   * Moves past a balanced `open ... close` group starting at `this.i` (which is on `open`),
   * skipping quoted text, so `$(echo ")")` ends at the right parenthesis.
   */
  private skipBalanced(open: string, close: string, startLine: number): void {
    const text = this.text;
    let depth = 0;
    while (this.i < text.length) {
      const c = text[this.i]!;
      if (c === '\\') {
        if (text[this.i + 1] === '\n') this.line++;
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = text.indexOf("'", this.i + 1);
        if (end === -1) break;
        this.line += linesIn(text.slice(this.i, end));
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        let j = this.i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        this.line += linesIn(text.slice(this.i, Math.min(j, text.length)));
        this.i = Math.min(j + 1, text.length);
        continue;
      }
      if (c === '\n') this.line++;
      if (c === open) depth++;
      if (c === close) {
        depth--;
        if (depth === 0) {
          this.i++;
          return;
        }
      }
      this.i++;
    }
    this.i = text.length;
    this.note(startLine, 'error', 'unterminated quote', `the "${open}" opened on line ${startLine} is never closed: bash refuses the script`);
  }

  /** `$...` at `this.i`: an expansion part, or literal text pushed through `pushText`. */
  private readDollar(quoted: boolean, pushText: PushText): WordPart | undefined {
    const text = this.text;
    const start = this.i;
    const next = text[this.i + 1];
    if (next === '(') {
      const startLine = this.line;
      const arithmetic = text[this.i + 2] === '(';
      this.i++;
      this.skipBalanced('(', ')', startLine);
      return { kind: 'dynamic', what: arithmetic ? 'arithmetic' : 'command-substitution', quoted, source: text.slice(start, this.i) };
    }
    if (next === '{') {
      const startLine = this.line;
      this.i++;
      this.skipBalanced('{', '}', startLine);
      const source = text.slice(start, this.i);
      return this.braceExpansion(source, quoted, startLine);
    }
    if (next === "'" && !quoted) {
      const end = text.indexOf("'", this.i + 2);
      let close = end;
      // \' inside $'...' does not end it
      while (close !== -1 && text[close - 1] === '\\' && text[close - 2] !== '\\') close = text.indexOf("'", close + 1);
      if (close === -1) {
        this.note(this.line, 'error', 'unterminated quote', `the $' quote opened on line ${this.line} is never closed: bash refuses the script`);
        pushText(ansiC(text.slice(this.i + 2)), true);
        this.i = text.length;
        return undefined;
      }
      const body = text.slice(this.i + 2, close);
      this.line += linesIn(body);
      pushText(ansiC(body), true);
      this.i = close + 1;
      return undefined;
    }
    if (next === '"' && !quoted) {
      // $"..." is a translatable string: a double-quoted one for our purpose
      this.i++;
      return undefined;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(this.i + 1, this.i + 257));
    if (name) {
      this.i += 1 + name[0].length;
      return { kind: 'variable', name: name[0], quoted, source: text.slice(start, this.i) };
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.i += 2;
      return { kind: 'dynamic', what: 'special-parameter', quoted, source: text.slice(start, this.i) };
    }
    pushText('$', quoted);
    this.i++;
    return undefined;
  }

  private braceExpansion(source: string, quoted: boolean, line: number): WordPart {
    const inner = source.slice(2, -1);
    if (NAME.test(inner)) return { kind: 'variable', name: inner, quoted, source };
    const operator = /^([A-Za-z_][A-Za-z0-9_]*)(:?)([-+?])([\s\S]*)$/.exec(inner);
    if (operator) {
      const [, name, colon, op, operand] = operator as unknown as [string, string, string, string, string];
      if (op === '?') return { kind: 'variable', name, quoted, source };
      if (this.depth >= MAX_EXPANSION_DEPTH) {
        this.note(line, 'warning', 'expansion', `\${${name}${colon}${op}...} on line ${line} is nested more than ${MAX_EXPANSION_DEPTH} deep: it is not evaluated`);
        return { kind: 'dynamic', what: 'parameter-expansion', quoted, source };
      }
      const sub = new Lexer(operand, line, this.note, this.budget, this.depth + 1);
      const parts = sub.readWordParts(true);
      if (quoted) for (const part of parts) if (part.kind === 'text') part.quoted = true;
      const branch = { parts, whenEmpty: colon === ':' };
      return op === '-' ? { kind: 'variable', name, quoted, source, fallback: branch } : { kind: 'variable', name, quoted, source, alternate: branch };
    }
    if (/^[0-9@*#?$!-]$|^\d+$/.test(inner)) return { kind: 'dynamic', what: 'special-parameter', quoted, source };
    return { kind: 'dynamic', what: 'parameter-expansion', quoted, source };
  }
}

/**
 * The tokens of a whole script; what cannot be read goes to `note`. Null past MAX_SCRIPT_TOKENS:
 * reading stopped there, having kept no more than that.
 */
export function tokenize(text: string, note: NoteSink): Token[] | null {
  const lexer = new Lexer(text, 1, note);
  try {
    lexer.run();
  } catch (error) {
    if (error instanceof TooManyTokens) return null;
    throw error;
  }
  return lexer.tokens;
}

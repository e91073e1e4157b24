/**
 * Reads what a bash launch script does, without running it: which variables it assigns,
 * exports and unsets, and which commands it runs with which words. It understands the bash
 * that launch scripts are written in (quotes, `\` line continuations, `$VAR`, `${VAR}`,
 * `${VAR:-default}`, `export`, `unset`, `set -a`, comments, redirections, here-documents,
 * pipelines) and reports, with its line, every construct whose effect depends on running
 * something: command substitution, arithmetic, loops and conditionals, functions, `source`,
 * `eval`, `read`. Nothing is guessed: such a value is marked as not evaluated.
 *
 * Written by hand rather than with a shell-words library (shell-quote's `parse`, for one):
 * the checks must name the line of every variable and flag, and those libraries keep no
 * positions, expand `$(...)` as if it were text, and know nothing of `export` or blocks.
 *
 * Pure and total: any text (empty, binary, 10 MB, cut in the middle of a quote) gives a
 * result; what could not be read is in `notes`.
 */

export type DynamicKind =
  | 'command-substitution'
  | 'arithmetic'
  | 'parameter-expansion'
  | 'special-parameter'
  | 'process-substitution'
  | 'array';

export type WordPart =
  | { kind: 'text'; text: string; quoted: boolean }
  | {
      kind: 'variable';
      name: string;
      quoted: boolean;
      source: string;
      /** `${NAME-x}` / `${NAME:-x}` (use x when unset, or when empty too with the colon) */
      fallback?: { parts: WordPart[]; whenEmpty: boolean };
      /** `${NAME+x}` / `${NAME:+x}` (x when set, or when set and not empty with the colon) */
      alternate?: { parts: WordPart[]; whenEmpty: boolean };
    }
  | { kind: 'tilde'; user: string; source: string }
  | { kind: 'dynamic'; what: DynamicKind; quoted: boolean; source: string };

/** One shell word: its pieces before expansion, where it starts, and how it is written. */
export interface Word {
  parts: WordPart[];
  /** 1-based line of its first character */
  line: number;
  /** the word as written in the script (quotes included) */
  source: string;
}

export type NoteSeverity = 'error' | 'warning' | 'info';

/** Something the reader could not evaluate, or that will not run as written. */
export interface ScriptNote {
  line: number;
  severity: NoteSeverity;
  /** short name of the construct: "if", "command substitution", "source", "crlf", ... */
  construct: string;
  /** one line saying what it is and what it means for the values */
  message: string;
}

export interface Conditional {
  /** "if", "while", "until", "for", "select", "case", "function NAME" */
  construct: string;
  line: number;
}

export interface Assignment {
  name: string;
  /** null for a bare name (`export NAME`) */
  value: Word | null;
  /** `NAME+=value` */
  append: boolean;
  line: number;
  source: string;
}

export type Statement =
  | { kind: 'assign'; assignment: Assignment; line: number; conditional: Conditional | null; exported?: boolean }
  | { kind: 'export'; names: string[]; exported: boolean; line: number; conditional: Conditional | null }
  | { kind: 'unset'; names: string[]; line: number; conditional: Conditional | null }
  | { kind: 'allexport'; on: boolean; line: number; conditional: Conditional | null }
  | { kind: 'dynamic'; names: string[]; reason: string; line: number; conditional: Conditional | null }
  | {
      kind: 'command';
      words: Word[];
      /** `NAME=value cmd`: variables set for this command only */
      env: Assignment[];
      line: number;
      endLine: number;
      background: boolean;
      conditional: Conditional | null;
    };

export interface ShellScript {
  statements: Statement[];
  notes: ScriptNote[];
  lines: number;
}

type Token =
  | { kind: 'word'; word: Word }
  | { kind: 'op'; op: string; line: number }
  | { kind: 'redir'; op: string; line: number; target: Word | null };

const OPERATOR_START = new Set([';', '&', '|', '(', ')', '<', '>']);
const CONTROL_OPERATORS = [';;&', ';;', ';&', '&&', '||', '|&'];
/** Longest first, so that "<<-" is not read as "<<" then "-". */
const REDIRECTIONS = ['<<<', '<<-', '&>>', '<<', '<&', '<>', '>>', '>&', '>|', '&>', '<', '>'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;
/** Characters with no meaning to the word reader outside quotes, and inside double quotes. */
const PLAIN_RUN = /[^\s;&|()<>\\'"`$~]+/y;
const QUOTED_RUN = /[^"\\$`\n]+/y;
/** Notes of one kind beyond this many are counted, not kept: a pathological input stays cheap. */
const MAX_NOTES = 200;

function isBlankChar(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
}

function linesIn(text: string): number {
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
    private readonly notes: ScriptNote[],
  ) {
    this.line = startLine;
  }

  note(line: number, severity: NoteSeverity, construct: string, message: string): void {
    if (this.notes.length < MAX_NOTES) this.notes.push({ line, severity, construct, message });
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
        this.tokens.push({ kind: 'op', op: '\n', line: this.line });
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
          this.tokens.push({ kind: 'op', op, line });
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
      this.tokens.push({ kind: 'op', op: one, line });
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
    this.tokens.push({ kind: 'redir', op: `${fd ?? ''}${redirection}`, line, target });
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
    const pushText = (value: string, quoted: boolean) => {
      const last = parts[parts.length - 1];
      if (last && last.kind === 'text' && last.quoted === quoted) last.text += value;
      else parts.push({ kind: 'text', text: value, quoted });
    };
    const wordStart = this.i;
    while (this.i < text.length) {
      const c = text[this.i]!;
      if (!toEnd && (isBlankChar(c) || c === '\n')) break;
      if (!toEnd && OPERATOR_START.has(c)) {
        if (this.startsProcessSubstitution()) {
          const start = this.i;
          const startLine = this.line;
          this.i++;
          this.skipBalanced('(', ')', startLine);
          parts.push({ kind: 'dynamic', what: 'process-substitution', quoted: false, source: text.slice(start, this.i) });
          continue;
        }
        // NAME=( ... ): an array assignment
        if (c === '(' && parts.length === 1 && parts[0]!.kind === 'text' && !parts[0]!.quoted && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(parts[0]!.text)) {
          const start = this.i;
          this.skipBalanced('(', ')', this.line);
          parts.push({ kind: 'dynamic', what: 'array', quoted: false, source: text.slice(start, this.i) });
          continue;
        }
        break;
      }
      if (c === '~' && this.i === wordStart && !toEnd) {
        const match = /^~([A-Za-z0-9._-]*)(?=\/|$|[\s;&|<>()])/.exec(text.slice(this.i, this.i + 64));
        if (match) {
          parts.push({ kind: 'tilde', user: match[1]!, source: match[0] });
          this.i += match[0].length;
          continue;
        }
      }
      if (c === '\\') {
        const next = text[this.i + 1];
        if (next === '\n') {
          if (toEnd) {
            this.i += 2;
            this.line++;
          } else this.continuation();
          continue;
        }
        if (next === undefined) {
          pushText('\\', false);
          this.i++;
          continue;
        }
        pushText(next, true);
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = text.indexOf("'", this.i + 1);
        const startLine = this.line;
        if (end === -1) {
          this.note(startLine, 'error', 'unterminated quote', `the single quote opened on line ${startLine} is never closed: bash refuses the script`);
          pushText(text.slice(this.i + 1), true);
          this.line += linesIn(text.slice(this.i));
          this.i = text.length;
          break;
        }
        const body = text.slice(this.i + 1, end);
        pushText(body, true);
        this.line += linesIn(body);
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        this.readDoubleQuoted(parts, pushText);
        continue;
      }
      if (c === '`') {
        parts.push(this.readBackticks(false));
        continue;
      }
      if (c === '$') {
        const part = this.readDollar(false, pushText);
        if (part) parts.push(part);
        continue;
      }
      if (c === '\n') {
        this.line++;
        pushText(c, false);
        this.i++;
        continue;
      }
      // a run of ordinary characters in one step: a 10 MB script stays linear and cheap
      PLAIN_RUN.lastIndex = this.i;
      const run = PLAIN_RUN.exec(text);
      const chunk = run && run.index === this.i && run[0].length > 0 ? run[0] : c;
      pushText(chunk, false);
      this.i += chunk.length;
    }
    return parts;
  }

  private readDoubleQuoted(parts: WordPart[], pushText: (value: string, quoted: boolean) => void): void {
    const text = this.text;
    const startLine = this.line;
    this.i++;
    let closed = false;
    while (this.i < text.length) {
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
  private readDollar(quoted: boolean, pushText: (value: string, quoted: boolean) => void): WordPart | undefined {
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
      const sub = new Lexer(operand, line, this.notes);
      const parts = sub.readWordParts(true);
      if (quoted) for (const part of parts) if (part.kind === 'text') part.quoted = true;
      const branch = { parts, whenEmpty: colon === ':' };
      return op === '-' ? { kind: 'variable', name, quoted, source, fallback: branch } : { kind: 'variable', name, quoted, source, alternate: branch };
    }
    if (/^[0-9@*#?$!-]$|^\d+$/.test(inner)) return { kind: 'dynamic', what: 'special-parameter', quoted, source };
    return { kind: 'dynamic', what: 'parameter-expansion', quoted, source };
  }
}

function plainText(word: Word | undefined): string | undefined {
  if (!word || word.parts.length !== 1) return undefined;
  const part = word.parts[0]!;
  return part.kind === 'text' && !part.quoted ? part.text : undefined;
}

/** `NAME=value` (or `NAME+=value`) as an assignment; undefined when the word is not one. */
export function assignmentOf(word: Word): Assignment | undefined {
  const first = word.parts[0];
  if (!first || first.kind !== 'text' || first.quoted) return undefined;
  const match = ASSIGNMENT.exec(first.text);
  if (!match) return undefined;
  const rest = first.text.slice(match[0].length);
  const parts: WordPart[] = [];
  if (rest !== '') parts.push({ kind: 'text', text: rest, quoted: false });
  // a loop, not a spread: a word of 100,000 parts must not exhaust the call stack
  for (let i = 1; i < word.parts.length; i++) parts.push(word.parts[i]!);
  // NAME=~/x: a tilde right after "=" expands like one at the start of a word
  const head = parts[0];
  if (head && head.kind === 'text' && !head.quoted) {
    const tilde = /^~([A-Za-z0-9._-]*)(?=\/|:|$)/.exec(head.text);
    if (tilde && (head.text.length > tilde[0].length || parts.length === 1)) {
      const remaining = head.text.slice(tilde[0].length);
      parts.splice(0, 1, { kind: 'tilde', user: tilde[1]!, source: tilde[0] }, ...(remaining ? [{ kind: 'text' as const, text: remaining, quoted: false }] : []));
    }
  }
  return {
    name: match[1]!,
    value: { parts, line: word.line, source: word.source.slice(match[0].length) },
    append: match[2] === '+',
    line: word.line,
    source: word.source,
  };
}

function lastLine(word: Word): number {
  return word.line + linesIn(word.source);
}

const CONDITIONAL_SCOPES = new Set(['if', 'while', 'until', 'for', 'select', 'case', 'function']);

interface Scope {
  kind: string;
  line: number;
  name?: string;
}

/** Turns the tokens into statements, tracking blocks so that what runs conditionally says so. */
class StatementBuilder {
  readonly statements: Statement[] = [];
  private readonly scopes: Scope[] = [];
  private words: Word[] = [];
  private casePatterns = false;
  private pendingFunction: { name: string; line: number } | null = null;
  /** `test && VAR=x`: what follows && or || runs only if what precedes it succeeds (or fails) */
  private chained: Conditional | null = null;

  constructor(private readonly note: (line: number, severity: NoteSeverity, construct: string, message: string) => void) {}

  /**
   * The open scopes that make what runs inside them conditional, innermost last: kept beside
   * `scopes` so that finding the nearest one costs nothing however deep the nesting (50,000
   * nested groups read in linear time).
   */
  private readonly conditionalScopes: Scope[] = [];

  private conditional(): Conditional | null {
    if (this.chained) return this.chained;
    const scope = this.conditionalScopes[this.conditionalScopes.length - 1];
    if (!scope) return null;
    return { construct: scope.kind === 'function' ? `function ${scope.name ?? ''}`.trim() : scope.kind, line: scope.line };
  }

  private push(kind: string, line: number, name?: string): void {
    const scope: Scope = name === undefined ? { kind, line } : { kind, line, name };
    this.scopes.push(scope);
    if (!CONDITIONAL_SCOPES.has(kind)) return;
    this.conditionalScopes.push(scope);
    if (this.conditionalScopes.length === 1) {
      const what =
        kind === 'function'
          ? `function ${name ?? ''} (line ${line}) is not evaluated: what it sets or runs counts only if it is called`
          : kind === 'if' || kind === 'case'
            ? `${kind} block (line ${line}): which branch runs is decided at run time; variables set inside are not evaluated`
            : `${kind} loop (line ${line}): variables set inside are not evaluated`;
      this.note(line, 'warning', kind === 'function' ? 'function' : kind, what);
    }
  }

  private popScope(): void {
    const scope = this.scopes.pop();
    if (scope !== undefined && this.conditionalScopes[this.conditionalScopes.length - 1] === scope) this.conditionalScopes.pop();
  }

  private pop(kinds: string[], line: number, word: string): void {
    const top = this.scopes[this.scopes.length - 1];
    if (!top) {
      this.note(line, 'error', 'syntax', `"${word}" on line ${line} closes a block that was never opened: bash refuses the script`);
      return;
    }
    if (!kinds.includes(top.kind)) this.note(line, 'error', 'syntax', `"${word}" on line ${line} does not close the ${top.kind} opened on line ${top.line}`);
    this.popScope();
  }

  feed(tokens: readonly Token[]): void {
    for (let t = 0; t < tokens.length; t++) {
      const token = tokens[t]!;
      if (token.kind === 'word') {
        if (this.casePatterns) {
          if (plainText(token.word) === 'esac' && this.words.length === 0) {
            this.casePatterns = false;
            this.pop(['case'], token.word.line, 'esac');
          }
          continue;
        }
        this.words.push(token.word);
        continue;
      }
      if (token.kind === 'redir') continue;
      const op = token.op;
      if (this.casePatterns) {
        if (op === ')') this.casePatterns = false;
        continue;
      }
      if (op === '(') {
        const next = tokens[t + 1];
        const only = this.words.length === 1 ? plainText(this.words[0]) : undefined;
        if (only !== undefined && NAME.test(only) && next?.kind === 'op' && next.op === ')') {
          // name() { ... }
          this.pendingFunction = { name: only, line: token.line };
          this.words = [];
          t++;
          continue;
        }
        if (this.words.length === 0) {
          this.push('subshell', token.line);
          continue;
        }
        this.flush(false);
        continue;
      }
      if (op === ')') {
        if (this.words.length > 0 && plainText(this.words[0]) === 'case') {
          // case WORD in PATTERN) on one line
          this.push('case', this.words[0]!.line);
          this.words = [];
          continue;
        }
        this.flush(false);
        const top = this.scopes[this.scopes.length - 1];
        if (top?.kind === 'subshell') this.popScope();
        continue;
      }
      this.flush(op === '&');
      if (op === '&&' || op === '||') this.chained ??= { construct: op, line: token.line };
      else if (op !== '|' && op !== '|&') this.chained = null;
      if ((op === ';;' || op === ';&' || op === ';;&') && this.scopes[this.scopes.length - 1]?.kind === 'case') this.casePatterns = true;
    }
    this.flush(false);
    for (const scope of this.scopes) {
      if (scope.kind !== 'subshell') this.note(scope.line, 'error', 'syntax', `the ${scope.kind} opened on line ${scope.line} is never closed: bash refuses the script`);
    }
  }

  /** Ends the simple command being collected. */
  private flush(background: boolean): void {
    const words = this.words;
    this.words = [];
    // an index, not words.slice(1) per keyword: 50,000 "{" on one line stay linear
    let at = 0;
    while (at < words.length) {
      const keyword = plainText(words[at]);
      const line = words[at]!.line;
      switch (keyword) {
        case 'if':
        case 'while':
        case 'until':
          this.push(keyword, line);
          at += 1;
          continue;
        case 'then':
        case 'else':
        case 'elif':
        case 'do':
        case '!':
        case 'time':
          at += 1;
          continue;
        case 'fi':
          this.pop(['if'], line, 'fi');
          at += 1;
          continue;
        case 'done':
          this.pop(['while', 'until', 'for', 'select'], line, 'done');
          at += 1;
          continue;
        case 'for':
        case 'select': {
          this.push(keyword, line);
          const variable = plainText(words[at + 1]);
          if (variable !== undefined && NAME.test(variable)) {
            this.statements.push({ kind: 'dynamic', names: [variable], reason: `the ${keyword} loop variable (line ${line})`, line, conditional: this.conditional() });
          }
          let doAt = at + 1;
          while (doAt < words.length && plainText(words[doAt]) !== 'do') doAt++;
          at = doAt + 1;
          continue;
        }
        case 'case':
          this.push('case', line);
          this.casePatterns = true;
          at = words.length;
          continue;
        case 'esac':
          this.pop(['case'], line, 'esac');
          at += 1;
          continue;
        case '{':
          if (this.pendingFunction) {
            this.push('function', this.pendingFunction.line, this.pendingFunction.name);
            this.pendingFunction = null;
          } else this.push('group', line);
          at += 1;
          continue;
        case '}':
          this.pop(['group', 'function'], line, '}');
          at += 1;
          continue;
        case 'function': {
          const name = plainText(words[at + 1]);
          if (name !== undefined) this.pendingFunction = { name: name.replace(/\(\)$/, ''), line };
          at += 2;
          continue;
        }
        default:
          break;
      }
      break;
    }
    if (at < words.length) this.simpleCommand(at === 0 ? words : words.slice(at), background);
  }

  private simpleCommand(words: Word[], background: boolean): void {
    const conditional = this.conditional();
    const line = words[0]!.line;
    if (this.chained && (assignmentOf(words[0]!) || ['export', 'unset', 'declare', 'typeset', 'readonly', 'local'].includes(plainText(words[0]) ?? ''))) {
      this.note(line, 'warning', this.chained.construct, `what line ${line} sets after ${this.chained.construct} depends on the command before it: it is not evaluated`);
    }
    const prefix: Assignment[] = [];
    let index = 0;
    for (; index < words.length; index++) {
      const assignment = assignmentOf(words[index]!);
      if (!assignment) break;
      prefix.push(assignment);
    }
    const rest = words.slice(index);
    if (rest.length === 0) {
      for (const assignment of prefix) this.statements.push({ kind: 'assign', assignment, line: assignment.line, conditional });
      return;
    }
    const command = plainText(rest[0]);
    const args = rest.slice(1);
    switch (command) {
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly':
        this.declaration(command, args, line, conditional);
        return;
      case 'unset': {
        const flags = args.filter((w) => plainText(w)?.startsWith('-'));
        if (flags.some((w) => plainText(w)!.includes('f'))) return;
        const names = args.map(plainText).filter((n): n is string => n !== undefined && NAME.test(n));
        if (names.length > 0) this.statements.push({ kind: 'unset', names, line, conditional });
        return;
      }
      case 'set': {
        const texts = args.map((w) => plainText(w) ?? '');
        for (let i = 0; i < texts.length; i++) {
          const arg = texts[i]!;
          if ((arg === '-o' || arg === '+o') && texts[i + 1] === 'allexport') {
            this.statements.push({ kind: 'allexport', on: arg === '-o', line, conditional });
            i++;
          } else if (/^[-+][A-Za-z]*a[A-Za-z]*$/.test(arg)) {
            this.statements.push({ kind: 'allexport', on: arg.startsWith('-'), line, conditional });
          }
        }
        return;
      }
      case 'source':
      case '.': {
        const file = args[0]?.source ?? '';
        this.note(line, 'warning', 'source', `source ${file} (line ${line}) is not read: the variables it sets are not known here`);
        return;
      }
      case 'eval':
        this.note(line, 'warning', 'eval', `eval (line ${line}) is not evaluated: what it sets or runs is not known here`);
        return;
      case 'read':
      case 'mapfile':
      case 'readarray':
      case 'getopts': {
        const names = args.map(plainText).filter((n): n is string => n !== undefined && NAME.test(n));
        if (names.length > 0) this.statements.push({ kind: 'dynamic', names, reason: `${command} (line ${line})`, line, conditional });
        return;
      }
      default: {
        // a loop, not Math.max(...): one command may have hundreds of thousands of words
        let endLine = line;
        for (const word of rest) endLine = Math.max(endLine, lastLine(word));
        this.statements.push({ kind: 'command', words: rest, env: prefix, line, endLine, background, conditional });
      }
    }
  }

  private declaration(command: string, args: Word[], line: number, conditional: Conditional | null): void {
    let exported: boolean | undefined = command === 'export' ? true : undefined;
    const names: string[] = [];
    for (const word of args) {
      const text = plainText(word);
      if (text !== undefined && /^[-+][A-Za-z]+$/.test(text)) {
        if (command === 'export' && text.startsWith('-') && text.includes('n')) exported = false;
        if (command !== 'export' && text.includes('x')) exported = text.startsWith('-');
        if (text.includes('f')) return;
        continue;
      }
      const assignment = assignmentOf(word);
      if (assignment) {
        const statement: Statement = { kind: 'assign', assignment, line: assignment.line, conditional };
        if (exported !== undefined) statement.exported = exported;
        this.statements.push(statement);
        continue;
      }
      if (text !== undefined && NAME.test(text)) names.push(text);
    }
    if (names.length > 0 && exported !== undefined) this.statements.push({ kind: 'export', names, exported, line, conditional });
  }
}

/**
 * The largest launch script qprep reads: real ones are a few kilobytes (the guides' longest is
 * under 4 KB), so 1 MiB is far above any of them and keeps a hostile one from costing seconds.
 */
export const MAX_LAUNCH_SCRIPT_BYTES = 1024 * 1024;

/** UTF-8 length without encoding the text. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The size of a script over MAX_LAUNCH_SCRIPT_BYTES, or undefined when it is within it. */
export function oversizedScript(text: string): number | undefined {
  if (text.length > MAX_LAUNCH_SCRIPT_BYTES) return utf8Length(text);
  if (text.length * 3 <= MAX_LAUNCH_SCRIPT_BYTES) return undefined;
  const bytes = utf8Length(text);
  return bytes > MAX_LAUNCH_SCRIPT_BYTES ? bytes : undefined;
}

/**
 * Reads a launch script. Never throws; see `notes` for what was not understood. Linear in the
 * script: no recursion per nesting level, no array spread into a call, no rescan per token.
 */
export function parseShellScript(input: string): ShellScript {
  const notes: ScriptNote[] = [];
  let text = typeof input === 'string' ? input : '';
  const oversized = oversizedScript(text);
  if (oversized !== undefined) {
    // a snapshot may carry any text: it is refused here as --launch refuses the file
    notes.push({ line: 1, severity: 'error', construct: 'size', message: `the script is ${oversized} bytes, over the ${MAX_LAUNCH_SCRIPT_BYTES} bytes (1 MiB) qprep reads of a launch script: it was not read` });
    return { statements: [], notes, lines: 0 };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text === '' ? 0 : linesIn(text) + (text.endsWith('\n') ? 0 : 1);
  const crlf = text.indexOf('\r\n');
  if (crlf !== -1) {
    const line = linesIn(text.slice(0, crlf)) + 1;
    notes.push({
      line,
      severity: 'error',
      construct: 'crlf',
      message: `the script has Windows line ends (CRLF, first on line ${line}): bash reads the \\r as part of every line, so continuations break and values end in \\r`,
    });
    // read the script as it was meant, so the rest of the report is still useful
    text = text.replace(/\r\n/g, '\n');
  }
  if (text.includes('\0')) {
    notes.push({ line: linesIn(text.slice(0, text.indexOf('\0'))) + 1, severity: 'error', construct: 'binary', message: 'the file holds NUL bytes: it is not a shell script' });
    return { statements: [], notes, lines };
  }
  const lexer = new Lexer(text, 1, notes);
  lexer.run();
  const builder = new StatementBuilder((line, severity, construct, message) => lexer.note(line, severity, construct, message));
  builder.feed(lexer.tokens);
  notes.sort((a, b) => a.line - b.line);
  return { statements: builder.statements, notes, lines };
}

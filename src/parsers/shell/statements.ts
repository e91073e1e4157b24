/** Turns the lexer's tokens into statements: assignments, exports, unsets and commands, each with the block it runs in. */
import { linesIn, NAME } from './lexer.js';
import type { Assignment, Conditional, NoteSink, Statement, Token, Word, WordPart } from './types.js';

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

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

  constructor(private readonly note: NoteSink) {}

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

/** The statements of a script's tokens, in order; what cannot be evaluated goes to `note`. */
export function buildStatements(tokens: readonly Token[], note: NoteSink): Statement[] {
  const builder = new StatementBuilder(note);
  builder.feed(tokens);
  return builder.statements;
}

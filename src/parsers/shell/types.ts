/** The shapes of a read launch script: words and their parts, statements, notes, tokens. */

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

/** What the lexer hands the statement builder: a word, a control operator (newline included) or a redirection. */
export type Token =
  | { kind: 'word'; word: Word }
  | { kind: 'op'; op: string; line: number }
  | { kind: 'redir'; op: string; line: number; target: Word | null };

/** Where the lexer and the statement builder report what they could not evaluate. */
export type NoteSink = (line: number, severity: NoteSeverity, construct: string, message: string) => void;

import {
  parseShellScript,
  type Assignment,
  type Conditional,
  type ScriptNote,
  type ShellScript,
  type Statement,
  type Word,
  type WordPart,
} from './shell-script.js';

/**
 * What a launch script hands to `vllm serve`: the statements of `parseShellScript` played in
 * order against the environment the script inherits, without running anything. Values built
 * from something only a run can tell (`$(hostname -I)`, a variable set inside an `if`) are
 * kept with `known: false` and the source text of what was not evaluated. Pure and total.
 */

/** An assignment of the script a value was built from. */
export interface ValueOrigin {
  name: string;
  line: number;
}

export interface Value {
  /** the value; parts that were not evaluated appear as written (`$(hostname -I)`) */
  text: string;
  known: boolean;
  /** what was not evaluated: source text of the parts, or why ("set inside the if at line 5") */
  dynamic: string[];
  /** the script's assignments the value came through, nearest first: HCCL_IF_IP <- IP_ADDRESS <- local_ip */
  origins: ValueOrigin[];
  /** variables taken from the environment the script starts with */
  inherited: string[];
  /** variables referenced but set nowhere: they expanded to nothing */
  unset: string[];
}

export interface ShellVariable {
  name: string;
  value: Value;
  exported: boolean;
  /** the line of the assignment; null when inherited from the environment */
  line: number | null;
  conditional: Conditional | null;
}

/** One argument of a command after expansion, with the line it is written on. */
export interface Field extends Value {
  line: number;
  /** the word as written */
  source: string;
  /**
   * the word expands to nothing because it is made of variables set nowhere (`--dp-address
   * $node_p0_ip`): bash drops it, but it stands for a value the caller is meant to give, so it
   * is kept, not known, with the variables in `unset`
   */
  vanished?: boolean;
}

export interface AssignmentRecord {
  name: string;
  line: number;
  value: Value;
  source: string;
  /** `NAME=value cmd`: for that command only */
  commandPrefix: boolean;
  conditional: Conditional | null;
  exported: boolean;
}

export interface CommandRecord {
  line: number;
  endLine: number;
  fields: Field[];
  conditional: Conditional | null;
}

/** How the server is started. */
export type ServeForm = 'vllm serve' | 'api_server';

export interface ServeCommand {
  form: ServeForm;
  line: number;
  endLine: number;
  /** the executable as written: "vllm", "/usr/local/python3.11/bin/vllm", "python3" */
  executable: Field;
  /** the arguments after `serve` (or after `-m vllm.entrypoints.openai.api_server`) */
  args: Field[];
  /** the environment the server process starts with: exported variables and the command's prefix assignments */
  env: Map<string, ShellVariable>;
  conditional: Conditional | null;
  /** the directory the script changed to before the server (cd /models), when known */
  cwd: string | null;
  /** started in the background (`vllm serve ... &`): the script goes on to its next command */
  background: boolean;
}

export interface LaunchScript {
  parsed: ShellScript;
  /** parse notes and evaluation notes, by line */
  notes: ScriptNote[];
  /** every assignment as it was evaluated where it stands, conditional ones included */
  assignments: AssignmentRecord[];
  /** every command other than assignments, expanded where it stands */
  commands: CommandRecord[];
  /** the variables after the last statement */
  variables: Map<string, ShellVariable>;
  /** the first server command; null when there is none */
  serve: ServeCommand | null;
  /** lines of further server commands (not checked) */
  otherServeLines: number[];
  /** the further server commands themselves, with the environment each starts with */
  otherServers: ServeCommand[];
}

function known(text: string): Value {
  return { text, known: true, dynamic: [], origins: [], inherited: [], unset: [] };
}

function mergeInto(target: Value, source: Value): void {
  target.text += source.text;
  if (!source.known) target.known = false;
  for (const d of source.dynamic) if (!target.dynamic.includes(d)) target.dynamic.push(d);
  for (const o of source.origins) if (!target.origins.some((x) => x.name === o.name && x.line === o.line)) target.origins.push(o);
  for (const n of source.inherited) if (!target.inherited.includes(n)) target.inherited.push(n);
  for (const n of source.unset) if (!target.unset.includes(n)) target.unset.push(n);
}

function dynamicValue(source: string, reason?: string): Value {
  return { text: source, known: false, dynamic: [reason ?? source], origins: [], inherited: [], unset: [] };
}

type Lookup = (name: string) => ShellVariable | undefined;

const POSITIONAL_SOURCE = /^\$(?:[1-9]|\{[1-9]\d*\})$/;

/** The key of a bound positional parameter among the variables: "$1" (no variable can be named so). */
function positionalName(source: string): string {
  return `$${source.replace(/[^0-9]/g, '')}`;
}

/** The value of `$NAME` where it stands. */
function variableValue(name: string, lookup: Lookup): { value: Value; set: boolean } {
  const variable = lookup(name);
  if (!variable) {
    const value = known('');
    value.unset.push(name);
    return { value, set: false };
  }
  const value: Value = { ...variable.value, dynamic: [...variable.value.dynamic], origins: [], inherited: [...variable.value.inherited], unset: [...variable.value.unset] };
  if (variable.line === null) {
    if (!value.inherited.includes(name)) value.inherited.unshift(name);
  } else value.origins.push({ name, line: variable.line });
  for (const o of variable.value.origins) if (!value.origins.some((x) => x.name === o.name && x.line === o.line)) value.origins.push(o);
  return { value, set: true };
}

interface Segment {
  value: Value;
  /** an unquoted expansion: split into fields on blanks */
  splittable: boolean;
  /** a quoted part: makes a field even when empty ("") */
  quoted: boolean;
}

function partSegments(parts: readonly WordPart[], lookup: Lookup, home: () => Value): Segment[] {
  const segments: Segment[] = [];
  for (const part of parts) {
    switch (part.kind) {
      case 'text':
        segments.push({ value: known(part.text), splittable: false, quoted: part.quoted });
        break;
      case 'tilde':
        segments.push({ value: part.user === '' ? home() : dynamicValue(part.source), splittable: false, quoted: false });
        break;
      case 'dynamic': {
        // $1..$9, ${10}: bound when a launcher's invocation of the script gives them
        const bound = POSITIONAL_SOURCE.test(part.source) ? lookup(positionalName(part.source)) : undefined;
        if (bound) {
          const value = { ...bound.value, dynamic: [...bound.value.dynamic], origins: [...bound.value.origins], inherited: [...bound.value.inherited], unset: [...bound.value.unset] };
          segments.push({ value, splittable: !part.quoted && value.known, quoted: part.quoted });
        } else segments.push({ value: dynamicValue(part.source), splittable: false, quoted: part.quoted });
        break;
      }
      case 'variable': {
        const { value, set } = variableValue(part.name, lookup);
        if (part.fallback && (!set || (part.fallback.whenEmpty && value.known && value.text === ''))) {
          const inner = partSegments(part.fallback.parts, lookup, home);
          // the fallback stands where the variable stood: quoted with it, split with it
          for (const segment of inner) segments.push({ ...segment, splittable: !part.quoted && !segment.quoted, quoted: part.quoted || segment.quoted });
          if (inner.length === 0 && part.quoted) segments.push({ value: known(''), splittable: false, quoted: true });
          break;
        }
        if (part.alternate) {
          const use = set && (!part.alternate.whenEmpty || value.text !== '' || !value.known);
          if (!value.known) {
            segments.push({ value: dynamicValue(part.source), splittable: false, quoted: part.quoted });
          } else if (use) {
            for (const segment of partSegments(part.alternate.parts, lookup, home)) segments.push({ ...segment, splittable: !part.quoted && !segment.quoted });
          } else if (part.quoted) segments.push({ value: known(''), splittable: false, quoted: true });
          break;
        }
        segments.push({ value, splittable: !part.quoted && value.known, quoted: part.quoted });
        break;
      }
    }
  }
  return segments;
}

/** A word as one value (an assignment's right-hand side: no field splitting). */
function wordValue(word: Word, lookup: Lookup, home: () => Value): Value {
  const value = known('');
  for (const segment of partSegments(word.parts, lookup, home)) mergeInto(value, segment.value);
  return value;
}

/** A command word after expansion: zero, one or several fields (unquoted `$EXTRA_ARGS` splits). */
function wordFields(word: Word, lookup: Lookup, home: () => Value): Field[] {
  const fields: Field[] = [];
  let current: Value | null = null;
  const start = () => (current ??= known(''));
  const end = () => {
    if (current) fields.push({ ...current, line: word.line, source: word.source });
    current = null;
  };
  for (const segment of partSegments(word.parts, lookup, home)) {
    if (!segment.splittable) {
      if (segment.quoted || segment.value.text !== '' || !segment.value.known) mergeInto(start(), segment.value);
      continue;
    }
    // bash splits an unquoted expansion on blanks: "a$X" with X=" b" gives "a" and "b"
    segment.value.text.split(/[ \t\n]+/).forEach((piece, index) => {
      if (index > 0) end();
      if (piece !== '') mergeInto(start(), { ...segment.value, text: piece });
    });
  }
  end();
  if (fields.length === 0) {
    const names = word.parts.filter((p): p is Extract<WordPart, { kind: 'variable' }> => p.kind === 'variable' && !p.fallback && !p.alternate && !lookup(p.name)).map((p) => p.name);
    if (names.length > 0) {
      fields.push({
        text: word.source,
        known: false,
        dynamic: [`${names.map((n) => `$${n}`).join(', ')} (set nowhere in the script or its environment)`],
        origins: [],
        inherited: [],
        unset: names,
        line: word.line,
        source: word.source,
        vanished: true,
      });
    }
  }
  return fields;
}

const WRAPPERS_WITHOUT_ARGUMENTS = new Set(['nohup', 'exec', 'time', 'command', 'builtin']);
/** Options of wrappers that take a separate value. */
const WRAPPER_VALUE_OPTIONS: Record<string, Set<string>> = {
  numactl: new Set(['-N', '-m', '-C', '-p', '-i', '--cpunodebind', '--membind', '--physcpubind', '--preferred', '--interleave']),
  taskset: new Set(['-c', '--cpu-list']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  stdbuf: new Set(['-i', '-o', '-e']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
};

function basename(path: string): string {
  return path.replace(/\/+$/, '').replace(/^.*\//, '');
}

/** Strips `nohup`, `env A=B`, `numactl ...` and the like; returns the command proper. */
function unwrap(fields: Field[]): { fields: Field[]; env: Array<{ name: string; value: Value; line: number }> } {
  let rest = fields;
  const env: Array<{ name: string; value: Value; line: number }> = [];
  for (let guard = 0; guard < 8 && rest.length > 0; guard++) {
    const head = basename(rest[0]!.text);
    if (WRAPPERS_WITHOUT_ARGUMENTS.has(head)) {
      rest = rest.slice(1);
      continue;
    }
    if (head === 'env') {
      let i = 1;
      for (; i < rest.length; i++) {
        const text = rest[i]!.text;
        const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(text);
        if (assignment) env.push({ name: assignment[1]!, value: { ...rest[i]!, text: assignment[2]! }, line: rest[i]!.line });
        else if (text === '-u' || text === '--unset') i++;
        else if (!text.startsWith('-')) break;
      }
      rest = rest.slice(i);
      continue;
    }
    const valueOptions = WRAPPER_VALUE_OPTIONS[head];
    if (valueOptions) {
      // taskset MASK command, timeout DURATION command: one positional before the command
      let positionals = head === 'taskset' || head === 'timeout' ? 1 : 0;
      let i = 1;
      for (; i < rest.length; i++) {
        const text = rest[i]!.text;
        if (valueOptions.has(text)) {
          if (head === 'taskset') positionals = 0;
          i++;
          continue;
        }
        if (text.startsWith('-')) continue;
        if (positionals > 0) {
          positionals--;
          continue;
        }
        break;
      }
      rest = rest.slice(i);
      continue;
    }
    break;
  }
  return { fields: rest, env };
}

const API_SERVER_MODULES = new Set(['vllm.entrypoints.openai.api_server', 'vllm.entrypoints.api_server']);

function serveOf(fields: Field[]): { form: ServeForm; executable: Field; args: Field[] } | undefined {
  const first = fields[0];
  if (!first) return undefined;
  const name = basename(first.text);
  if (name === 'vllm' && fields[1]?.text === 'serve') return { form: 'vllm serve', executable: first, args: fields.slice(2) };
  if (/^python[0-9.]*$/.test(name)) {
    const m = fields.findIndex((f) => f.text === '-m');
    const module = m === -1 ? undefined : fields[m + 1]?.text;
    if (module && API_SERVER_MODULES.has(module)) return { form: 'api_server', executable: first, args: fields.slice(m + 2) };
    if (module === 'vllm.entrypoints.cli.main' && fields[m + 2]?.text === 'serve') return { form: 'vllm serve', executable: first, args: fields.slice(m + 3) };
  }
  return undefined;
}

function describeConditional(conditional: Conditional): string {
  const where = conditional.construct === '&&' || conditional.construct === '||' ? 'after' : 'inside';
  return `set ${where} the ${conditional.construct} at line ${conditional.line}`;
}

/** Plays a script's statements in order against the variables they see, as bash would run them. */
class ScriptPlayer {
  readonly variables = new Map<string, ShellVariable>();
  /** names exported before they are set (`export NAME`, then `NAME=x`) */
  private readonly exportOnly = new Set<string>();
  readonly notes: ScriptNote[];
  private readonly noted = new Set<string>();
  readonly assignments: AssignmentRecord[] = [];
  readonly commands: CommandRecord[] = [];
  serve: ServeCommand | null = null;
  readonly otherServeLines: number[] = [];
  readonly otherServers: ServeCommand[] = [];
  private allexport = false;
  /** where relative paths point: unknown until a cd to an absolute path */
  private cwd: string | null = null;

  constructor(parsed: ShellScript) {
    this.notes = [...parsed.notes];
  }

  private readonly lookup: Lookup = (name) => this.variables.get(name);
  private readonly home = (): Value => {
    const { value, set } = variableValue('HOME', this.lookup);
    return set ? value : dynamicValue('~', '~ (HOME is not set)');
  };

  play(statement: Statement): void {
    switch (statement.kind) {
      case 'assign':
        this.assign(statement);
        break;
      case 'export':
        this.exportNames(statement);
        break;
      case 'unset':
        this.unset(statement);
        break;
      case 'allexport':
        if (!statement.conditional) this.allexport = statement.on;
        break;
      case 'dynamic':
        this.setDynamic(statement);
        break;
      case 'command':
        this.command(statement);
        break;
    }
  }

  /** Notes what a value leaves unevaluated where it is written, not again where it is only referenced. */
  private noteDynamic(line: number, name: string, value: Value, source: string): void {
    for (const what of value.dynamic) {
      const key = `${line}:${what}`;
      if (this.noted.has(key) || !source.includes(what)) continue;
      this.noted.add(key);
      if (/^\$(?:\d|\{\d+\})$/.test(what)) {
        // a template filled in by its launcher: not a doubt about the script, launch.flags names the sizes
        this.notes.push({ line, severity: 'info', construct: 'script argument', message: `${name} (line ${line}) is the script's argument ${what}: the caller fills it in` });
        continue;
      }
      this.notes.push({
        line,
        severity: 'warning',
        construct: /^\$\(\(/.test(what) ? 'arithmetic' : /^(\$\(|`)/.test(what) ? 'command substitution' : 'expansion',
        message: `${name} (line ${line}) depends on ${what}, which only a run can tell: it is not checked`,
      });
    }
  }

  private assign(statement: Extract<Statement, { kind: 'assign' }>): void {
    const { assignment, conditional } = statement;
    const computed = assignment.value ? wordValue(assignment.value, this.lookup, this.home) : known('');
    const previous = this.variables.get(assignment.name);
    if (assignment.append && previous) {
      const joined = { ...previous.value, dynamic: [...previous.value.dynamic], origins: [...previous.value.origins], inherited: [...previous.value.inherited], unset: [...previous.value.unset] };
      mergeInto(joined, computed);
      Object.assign(computed, joined);
    }
    const exported = statement.exported ?? (this.allexport || this.exportOnly.has(assignment.name) || (previous?.exported ?? false));
    this.assignments.push({ name: assignment.name, line: assignment.line, value: computed, source: assignment.source, commandPrefix: false, conditional, exported });
    this.noteDynamic(assignment.line, assignment.name, computed, assignment.source);
    const value: Value = conditional
      ? { ...computed, known: false, dynamic: [...computed.dynamic, describeConditional(conditional)] }
      : computed;
    this.variables.set(assignment.name, { name: assignment.name, value, exported, line: assignment.line, conditional });
    if (statement.exported === false) this.exportOnly.delete(assignment.name);
  }

  private exportNames(statement: Extract<Statement, { kind: 'export' }>): void {
    for (const name of statement.names) {
      const variable = this.variables.get(name);
      if (variable) variable.exported = statement.exported;
      if (statement.exported) this.exportOnly.add(name);
      else this.exportOnly.delete(name);
    }
  }

  private unset(statement: Extract<Statement, { kind: 'unset' }>): void {
    for (const name of statement.names) {
      if (statement.conditional) {
        const variable = this.variables.get(name);
        if (variable) variable.value = { ...variable.value, known: false, dynamic: [...variable.value.dynamic, `maybe unset: ${describeConditional(statement.conditional).replace(/^set /, '')}`] };
      } else {
        this.variables.delete(name);
        this.exportOnly.delete(name);
      }
    }
  }

  /** `read NAME`, a loop variable: set to what only a run can tell. */
  private setDynamic(statement: Extract<Statement, { kind: 'dynamic' }>): void {
    for (const name of statement.names) {
      const previous = this.variables.get(name);
      this.variables.set(name, {
        name,
        value: dynamicValue(`$${name}`, `set by ${statement.reason}`),
        exported: previous?.exported ?? this.allexport,
        line: statement.line,
        conditional: statement.conditional,
      });
    }
  }

  private command(statement: Extract<Statement, { kind: 'command' }>): void {
    const prefix = statement.env.map((a: Assignment) => {
      const value = a.value ? wordValue(a.value, this.lookup, this.home) : known('');
      this.assignments.push({ name: a.name, line: a.line, value, source: a.source, commandPrefix: true, conditional: statement.conditional, exported: true });
      this.noteDynamic(a.line, a.name, value, a.source);
      return { name: a.name, value, line: a.line };
    });
    const fields = statement.words.flatMap((word) => wordFields(word, this.lookup, this.home));
    this.commands.push({ line: statement.line, endLine: statement.endLine, fields, conditional: statement.conditional });
    if (fields[0]?.text === 'cd') {
      this.changeDirectory(fields[1], statement.conditional);
      return;
    }
    const unwrapped = unwrap(fields);
    const found = serveOf(unwrapped.fields);
    if (!found) return;
    const env = new Map<string, ShellVariable>();
    for (const variable of this.variables.values()) if (variable.exported) env.set(variable.name, variable);
    for (const p of [...prefix, ...unwrapped.env]) env.set(p.name, { name: p.name, value: p.value, exported: true, line: p.line, conditional: statement.conditional });
    const server = { form: found.form, line: statement.line, endLine: statement.endLine, executable: found.executable, args: found.args, env, conditional: statement.conditional, cwd: this.cwd, background: statement.background };
    if (this.serve) {
      this.otherServeLines.push(statement.line);
      this.otherServers.push(server);
      return;
    }
    for (const field of found.args) this.noteDynamic(field.line, `the argument ${field.source}`, field, field.source);
    this.serve = server;
  }

  private changeDirectory(target: Field | undefined, conditional: Conditional | null): void {
    const chainedOnly = conditional === null || conditional.construct === '&&';
    const cwd = this.cwd;
    if (target?.known && chainedOnly && target.text.startsWith('/')) this.cwd = target.text.replace(/\/+$/, '') || '/';
    else if (target?.known && chainedOnly && cwd !== null && !target.text.startsWith('-')) this.cwd = `${cwd === '/' ? '' : cwd}/${target.text}`;
    else this.cwd = null;
  }

  /** What is said about the server command once the whole script is played. */
  noteServers(): void {
    const chosen = this.serve;
    // "cd /models && vllm serve ..." runs the server when cd succeeds: that is the plan, not a doubt
    if (chosen?.conditional && chosen.conditional.construct !== '&&') {
      this.notes.push({
        line: chosen.line,
        severity: 'warning',
        construct: chosen.conditional.construct,
        message: `the server command (line ${chosen.line}) is ${describeConditional(chosen.conditional).replace(/^set /, '')}: it is checked as if that branch runs`,
      });
    }
    if (this.otherServeLines.length > 0) {
      this.notes.push({
        line: this.otherServeLines[0]!,
        severity: 'info',
        construct: 'several servers',
        message: `the script starts more than one server (lines ${[chosen?.line, ...this.otherServeLines].join(', ')}): only the first is checked`,
      });
    }
  }
}

/**
 * Plays the script against `inherited` (the environment it starts with) and finds the server
 * command. `inherited` is the environment qprep runs in: the script is meant to be started
 * from the same shell.
 */
export function evaluateLaunchScript(parsed: ShellScript, inherited: Readonly<Record<string, string>>, options: EvaluateOptions = {}): LaunchScript {
  const player = new ScriptPlayer(parsed);
  const variables = player.variables;
  for (const [name, text] of Object.entries(inherited)) {
    if (name.startsWith('$')) continue;
    variables.set(name, { name, value: known(text), exported: true, line: null, conditional: null });
  }
  (options.positional ?? []).forEach((value, index) => {
    // an argument the caller computes at run time leaves $N to the caller, as in a template
    if (!value.known) return;
    const name = `$${index + 1}`;
    variables.set(name, { name, value, exported: false, line: null, conditional: null });
  });
  for (const statement of parsed.statements) player.play(statement);
  player.noteServers();
  const { notes, assignments, commands, serve, otherServeLines, otherServers } = player;
  notes.sort((a, b) => a.line - b.line);
  return { parsed, notes, assignments, commands, variables, serve, otherServeLines, otherServers };
}

export interface EvaluateOptions {
  /** the script's arguments $1, $2, ... as a caller passes them (a launcher's invocation) */
  positional?: readonly Value[];
}

/** Parses and evaluates in one go. */
export function readLaunchScript(text: string, inherited: Readonly<Record<string, string>>, options: EvaluateOptions = {}): LaunchScript {
  return evaluateLaunchScript(parseShellScript(text), inherited, options);
}

/** A command of a script that runs another script with arguments: `bash run_dp_template.sh 0,1 9000 ...`. */
export interface Invocation {
  line: number;
  /** the script as the command names it: "./run_dp_template.sh" */
  script: string;
  /** the arguments, $1 first */
  args: Field[];
}

const SCRIPT_RUNNERS = new Set(['bash', 'sh', 'dash', 'source', '.']);

/**
 * The commands of `launcher` that run the script named `target` (compared by file name):
 * `bash x.sh a b`, `sh x.sh a b`, `./x.sh a b`, `/opt/x.sh a b`, behind nohup, env and the like.
 * Options of the shell itself (`bash -x x.sh`) are passed over.
 */
export function invocationsOf(launcher: LaunchScript, target: string): Invocation[] {
  const wanted = basename(target);
  if (wanted === '' || wanted === '-') return [];
  const found: Invocation[] = [];
  for (const command of launcher.commands) {
    const { fields } = unwrap(command.fields);
    const head = fields[0];
    if (!head?.known) continue;
    let at = 0;
    if (SCRIPT_RUNNERS.has(basename(head.text))) {
      at = 1;
      while (fields[at]?.known && fields[at]!.text.startsWith('-') && fields[at]!.text !== '-') at++;
    }
    const script = fields[at];
    if (!script?.known || basename(script.text) !== wanted) continue;
    found.push({ line: command.line, script: script.text, args: fields.slice(at + 1) });
  }
  return found;
}

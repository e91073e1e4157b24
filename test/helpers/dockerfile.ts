import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile: its keyword, its flags (--platform=...), the rest, and its line. */
export interface Instruction {
  keyword: string;
  flags: Record<string, string>;
  args: string;
  line: number;
}

/**
 * The instructions of a Dockerfile as BuildKit reads them: comments and blank lines dropped,
 * lines ending in a backslash joined with the next, the keyword case-insensitive, leading
 * `--flag=value` options apart.
 */
export function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trim();
    const start = i + 1;
    if (line === '' || line.startsWith('#')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trim()} ${lines[++i]!.trim()}`;
    const [keyword = '', ...rest] = line.split(/\s+/);
    const flags: Record<string, string> = {};
    while (rest[0]?.startsWith('--')) {
      const [name, value = ''] = rest.shift()!.slice(2).split('=');
      flags[name!] = value;
    }
    out.push({ keyword: keyword.toUpperCase(), flags, args: rest.join(' '), line: start });
  }
  return out;
}

export function readDockerfile(path: string): Instruction[] {
  return parseDockerfile(readFileSync(path, 'utf8'));
}

/** The instructions of each stage, in order; the global ARGs (before the first FROM) apart. */
export function stages(instructions: readonly Instruction[]): { globals: Instruction[]; stages: Instruction[][] } {
  const first = instructions.findIndex((i) => i.keyword === 'FROM');
  const globals = instructions.slice(0, first);
  const list: Instruction[][] = [];
  for (const instruction of instructions.slice(first)) {
    if (instruction.keyword === 'FROM') list.push([]);
    list.at(-1)!.push(instruction);
  }
  return { globals, stages: list };
}

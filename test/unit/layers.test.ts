import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layer rule of docs/development.md ("Layers"), read from that page's two tables so that the
 * page and the rule cannot drift: a module of src/ or checks/ imports from its own floor and the
 * floors below, and upward only by a type-only import listed under "Allowed upward imports".
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = 'docs/development.md';

interface Floor {
  number: number;
  /** a folder ends with "/", anything else is one file */
  paths: string[];
}

interface Allowed {
  from: string;
  to: string;
  why: string;
}

interface ModuleImport {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** The "## Layers" section of the page, up to the next "## " heading. */
function layersSection(page: string): string {
  const start = page.indexOf('\n## Layers\n');
  if (start < 0) throw new Error(`${PAGE} has no "## Layers" section`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

/** The rows of the markdown table whose header is exactly `header`, as trimmed cells. */
function tableRows(section: string, header: string): string[][] {
  const lines = section.split('\n');
  const at = lines.findIndex((line) => line.trim() === header);
  if (at < 0) throw new Error(`${PAGE}: the Layers section has no table "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((cell) => cell.trim()));
  }
  return rows;
}

const codePaths = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

function readLayers(): { floors: Floor[]; allowed: Allowed[] } {
  const section = layersSection(readFileSync(join(REPO, PAGE), 'utf8'));
  const floors = tableRows(section, '| floor | modules | holds |').map(([number, modules]) => ({ number: Number(number), paths: codePaths(modules ?? '') }));
  const allowed = tableRows(section, '| from | to | why |').map(([from, to, why]) => ({ from: codePaths(from ?? '')[0] ?? '', to: codePaths(to ?? '')[0] ?? '', why: why ?? '' }));
  return { floors, allowed };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir)).flatMap((name) => {
    const path = posix.join(dir, name);
    if (statSync(join(REPO, path)).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file: static imports, re-exports and import() calls. */
function importsOf(file: string): ModuleImport[] {
  const source = ts.createSourceFile(file, readFileSync(join(REPO, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: ModuleImport[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const target = relative(REPO, resolve(REPO, dirname(file), specifier.text)).split('\\').join('/').replace(/\.js$/, '.ts');
    found.push({ from: file, to: target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      // `import type {...}`, or `import { type A, type B }` with every name a type
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the layers of docs/development.md', () => {
  const { floors, allowed } = readLayers();
  const files = [...sourceFiles('src'), ...sourceFiles('checks')];

  /** The floor of a file: that of the longest path of the table it starts with. */
  const floorOf = (file: string): number | undefined => {
    let best: { number: number; length: number } | undefined;
    for (const floor of floors) {
      for (const path of floor.paths) {
        const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
        if (matches && (!best || path.length > best.length)) best = { number: floor.number, length: path.length };
      }
    }
    return best?.number;
  };
  const imports = files.flatMap(importsOf);
  const allowedKey = (from: string, to: string) => `${from} -> ${to}`;

  it('lists the floors bottom to top, each path once and each path existing', () => {
    expect(floors.length).toBeGreaterThan(10);
    expect(floors.map((f) => f.number)).toEqual(floors.map((_, i) => i + 1));
    const paths = floors.flatMap((f) => f.paths);
    expect(paths.filter((path, i) => paths.indexOf(path) !== i)).toEqual([]);
    expect(paths.filter((path) => !existsSync(join(REPO, path)))).toEqual([]);
  });

  it('puts every module of src/ and checks/ on a floor', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => floorOf(file) === undefined)).toEqual([]);
  });

  it('has no import from a higher floor but the type-only ones listed, each with its reason', () => {
    const listed = new Set(allowed.map((a) => allowedKey(a.from, a.to)));
    const upward = imports
      .filter((i) => (floorOf(i.to) ?? 0) > (floorOf(i.from) ?? 0))
      .filter((i) => !(i.typeOnly && listed.has(allowedKey(i.from, i.to))))
      .map((i) => `${i.from} (floor ${floorOf(i.from)}) imports ${i.typeOnly ? 'types of ' : ''}${i.to} (floor ${floorOf(i.to)})`);
    expect(upward).toEqual([]);
    for (const a of allowed) expect(a.why.length, allowedKey(a.from, a.to)).toBeGreaterThan(20);
  });

  it('lists no allowed import that the code does not make (type-only, upward)', () => {
    const made = new Set(imports.filter((i) => i.typeOnly && (floorOf(i.to) ?? 0) > (floorOf(i.from) ?? 0)).map((i) => allowedKey(i.from, i.to)));
    expect(allowed.map((a) => allowedKey(a.from, a.to)).filter((key) => !made.has(key))).toEqual([]);
  });

  it('resolves every relative import to a module it checks', () => {
    const known = new Set(files);
    // the JSON a module reads (package.json for the version) is data, on no floor
    expect(imports.filter((i) => !known.has(i.to) && !i.to.endsWith('.json')).map((i) => allowedKey(i.from, i.to))).toEqual([]);
  });
});

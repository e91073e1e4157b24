import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sysctlKeyMatches } from '../../src/parsers/sysctl-conf.js';
import { tmpfilesPathMatches } from '../../src/parsers/tmpfiles.js';
import { qprepWith, untunedTree } from './support.js';

/*
 * Every function exported by src/parsers/ under fast-check: arbitrary strings (any code point,
 * lone surrogates included), arbitrary bytes decoded as latin1 (what a non-UTF-8 locale gives),
 * raw bytes where the function takes them, and lines of the real fixtures shuffled with garbage
 * (which reaches deeper than random text). None may throw; each returns its structured result.
 * Helpers that take a parser's result get the result of parsing the same arbitrary text.
 *
 * The list of modules and exports is read from the source tree: a new parser module, or a new
 * exported function, fails this test until it has a driver below.
 */

const PARSERS_DIR = new URL('../../src/parsers/', import.meta.url);
/** The real outputs and the real launch scripts: the vocabulary the parsers know, to recombine. */
const FIXTURE_DIRS = [new URL('../fixtures/ascend/', import.meta.url), new URL('../fixtures/launch/', import.meta.url)];

type Module = Record<string, unknown>;
type Fn = (...args: never[]) => unknown;

const fixtureLines = FIXTURE_DIRS.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.txt') || name.endsWith('.sh'))
    .flatMap((name) => readFileSync(new URL(name, dir), 'latin1').split('\n')),
).filter((line) => line.trim() !== '');

const latin1 = fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('latin1'));
const text = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  latin1,
  fc
    .tuple(
      fc.array(fc.oneof(fc.constantFrom(...fixtureLines), fc.string({ maxLength: 40 }), fc.constantFrom('', '...', '\r', '\u0000', '|', ':', '=')), { maxLength: 40 }),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([lines, end]) => lines.join(end)),
);
/** A TextInput: the text, or raw bytes (a snapshot's recording) that may not be UTF-8. */
const textInput = fc.oneof(text, fc.uint8Array({ maxLength: 600 }));

/**
 * How to call each export with arbitrary input: `module#export` to a property over `text`.
 * Each driver returns what the function returned, for the shape check.
 */
type Driver = (fn: Fn, mod: Module, input: string, extra: { n: number; flag: boolean; other: string; bytes: Uint8Array }) => unknown;

const call = (fn: Fn, ...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args);
const fnOf = (mod: Module, name: string) => mod[name] as Fn;

const DRIVERS: Record<string, Driver> = {
  'ascend-files#parseAscendKeyValue': (fn, _m, input) => call(fn, input),
  'ascend-files#fileValue': (fn, m, input, { other }) => call(fn, call(fnOf(m, 'parseAscendKeyValue'), input), other),
  'ascend-files#parseDriverVersionInfo': (fn, _m, input) => call(fn, input),
  'ascend-files#parseFirmwareVersionInfo': (fn, _m, input) => call(fn, input),
  'ascend-files#parseAscendInstallInfo': (fn, _m, input) => call(fn, input),
  'ascend-files#parseCannInstallInfo': (fn, _m, input) => call(fn, input),
  'cpulist#parseCpuList': (fn, _m, input) => call(fn, input),
  'cpulist#readCpuList': (fn, _m, input) => call(fn, input),
  'id-ranges#parseIdRanges': (fn, _m, input, { n }) => call(fn, input, n),
  'hccn-conf#parseHccnConf': (fn, _m, input) => call(fn, input),
  'hccn-diag#parseHccnLinkStat': (fn, _m, input) => call(fn, input),
  'hccn-diag#parseHccnKeyValues': (fn, _m, input) => call(fn, input),
  'hccn-diag#parseHccnRoute': (fn, _m, input) => call(fn, input),
  'hccn-lldp#parseHccnLldp': (fn, _m, input) => call(fn, input),
  'hccn-ping#parseHccnPing': (fn, _m, input) => call(fn, input),
  'hccn-ping#parseHccsPing': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnIp': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnVnic': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnLink': (fn, _m, input) => call(fn, input),
  'hccn#netHealthState': (fn, _m, input) => call(fn, input),
  'hccn#isNetHealthy': (fn, m, input, { flag }) => call(fn, call(fnOf(m, 'netHealthState'), input), { acceptInit: flag }),
  'hccn#parseHccnNetHealth': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnNetdetect': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnGateway': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnTls': (fn, _m, input) => call(fn, input),
  'hccn#isHccnBusy': (fn, _m, input) => call(fn, input),
  'hccn#parseHccnSetAnswer': (fn, _m, input) => call(fn, input),
  'json-documents#parseJsonDocuments': (fn, _m, input) => call(fn, input),
  // raw bytes and the text's own bytes; the documents it visits must be what JSON.parse gives
  'json-documents#visitJsonLines': (fn, _m, input, { bytes, flag }) => {
    const visited: unknown[] = [];
    const whole = call(fn, flag ? bytes : Buffer.from(input, 'utf8'), (document: { value: unknown; line: number }) => {
      expect(Number.isInteger(document.line) && document.line >= 1).toBe(true);
      visited.push(document.value);
    });
    expect(typeof whole).toBe('boolean');
    return { whole, visited };
  },
  'ldconfig#parseLdconfigCache': (fn, _m, input) => call(fn, input),
  'ldconfig#ldFlagsMatchArch': (fn, _m, input, { other }) => call(fn, input, other),
  'launch-script#readLaunchScript': (fn, _m, input, { other }) => call(fn, input, { HOME: other, PATH: '/usr/bin' }),
  'launch-script#evaluateLaunchScript': (fn, _m, input, { other }) => call(fn, call(fnOf(modules.get('shell-script')!, 'parseShellScript'), input), { PATH: other }),
  'shell-script#parseShellScript': (fn, _m, input) => call(fn, input),
  'shell-script#assignmentOf': (fn, m, input) => {
    const parsed = call(fnOf(m, 'parseShellScript'), input) as { statements: Array<{ kind: string; words?: unknown[] }> };
    return parsed.statements.flatMap((statement) => (statement.kind === 'command' ? (statement.words ?? []).map((word) => call(fn, word) ?? null) : []));
  },
  'vllm-args#parseServeArgs': (fn, _m, input) => call(fn, serveFields(input)),
  'vllm-args#lastFlag': (fn, m, input, { other }) => call(fn, call(fnOf(m, 'parseServeArgs'), serveFields(input)), other),
  'vllm-args#booleanFlag': (fn, m, input, { other }) => call(fn, call(fnOf(m, 'parseServeArgs'), serveFields(input)), other),
  'vllm-args#integerFlag': (fn, m, input, { other, n }) => call(fn, call(fnOf(m, 'parseServeArgs'), serveFields(input)), other, n),
  'vllm-args#jsonFlag': (fn, m, input, { other }) => call(fn, call(fnOf(m, 'parseServeArgs'), serveFields(input)), other),
  'lines#decodeText': (fn, _m, input, { bytes }) => [call(fn, input), call(fn, bytes)],
  'lines#splitLines': (fn, _m, input) => call(fn, input),
  'lines#preview': (fn, _m, input, { n }) => call(fn, input, n),
  'lines#integerOf': (fn, _m, input) => call(fn, input),
  'lines#decimalOf': (fn, _m, input) => call(fn, input),
  'meminfo#parseMeminfo': (fn, _m, input) => call(fn, input),
  'mountinfo#parseMountinfo': (fn, _m, input) => call(fn, input),
  'mountinfo#mountFor': (fn, m, input, { other }) => call(fn, (call(fnOf(m, 'parseMountinfo'), input) as { mounts: unknown[] }).mounts, `/${other}`),
  'npu-smi-info#parseNpuSmiInfo': (fn, _m, input) => call(fn, input),
  'npu-smi-info#familyOf': (fn, m, input) => {
    const parsed = call(fnOf(m, 'parseNpuSmiInfo'), input) as { kind: string };
    return parsed.kind === 'table' ? call(fn, parsed) : 'no table';
  },
  'npu-smi-info#deviceIdOf': (fn, m, input, { n }) => {
    const parsed = call(fnOf(m, 'parseNpuSmiInfo'), input) as { kind: string; chips?: unknown[] };
    return (parsed.chips ?? []).map((chip) => call(fn, chip, n));
  },
  'npu-smi-kv#parseNpuSmiKeyValue': (fn, _m, input) => call(fn, input),
  'npu-smi-kv#valueOf': (fn, m, input, { other }) => (call(fnOf(m, 'parseNpuSmiKeyValue'), input) as { blocks: unknown[] }).blocks.map((block) => call(fn, block, other)),
  'npu-smi-kv#healthInfo': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-kv#boardInfo': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-kv#usagesInfo': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-kv#commonInfo': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-kv#memoryInfo': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-kv#spodInfo': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-kv#cardList': (fn, m, input) => call(fn, call(fnOf(m, 'parseNpuSmiKeyValue'), input)),
  'npu-smi-mapping#parseNpuSmiMapping': (fn, _m, input) => call(fn, input),
  'os-release#parseOsRelease': (fn, _m, input) => call(fn, input),
  'os-release#packageFamily': (fn, m, input) => call(fn, call(fnOf(m, 'parseOsRelease'), input)),
  'parsed#shorten': (fn, _m, input, { n }) => call(fn, input, n),
  'parsed#forEachLine': (fn, _m, input, { flag }) => {
    const lines: string[] = [];
    call(fn, input, (line: string) => {
      lines.push(line);
      return flag || lines.length < 3;
    });
    return lines;
  },
  'parsed#isElision': (fn, _m, input) => call(fn, input),
  'parsed#isBlank': (fn, _m, input) => call(fn, input),
  'parsed#SkippedLines': (fn, _m, input) => {
    const skipped = new (fn as unknown as new () => { add(line: string, n: number): void; first: unknown; count: number })();
    input.split('\n').forEach((line, i) => skipped.add(line, i + 1));
    return { first: skipped.first, count: skipped.count };
  },
  'parsed#forEachDataLine': (fn, m, input) => {
    const Skipped = fnOf(m, 'SkippedLines') as unknown as new () => object;
    const visited: number[] = [];
    let elisions = 0;
    call(fn, input, new Skipped(), () => elisions++, (_line: string, number: number) => void visited.push(number));
    return { visited, elisions };
  },
  'parsed#failure': (fn, _m, input, { n, other }) => call(fn, input, n, other),
  'parsed#nothingRecognized': (fn, m, input, { other }) => {
    const Skipped = fnOf(m, 'SkippedLines') as unknown as new () => { add(line: string, n: number): void };
    const skipped = new Skipped();
    input.split('\n').forEach((line, i) => skipped.add(line, i + 1));
    return call(fn, other, skipped);
  },
  'proc-net-route#parseProcNetRoute': (fn, _m, input) => call(fn, input),
  'proc-net-route#defaultRoute': (fn, m, input) => call(fn, call(fnOf(m, 'parseProcNetRoute'), input)),
  'proc-net-tcp#compressIPv6': (fn, _m, _input, { bytes }) => call(fn, Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0))),
  'proc-net-tcp#parseProcNetTcp': (fn, _m, input, { flag }) => call(fn, input, flag ? 'IPv4' : 'IPv6'),
  'shell-assignments#parseShellAssignments': (fn, _m, input) => call(fn, input),
  'socket-ifname#parseIfnameSelector': (fn, _m, input, { flag }) => call(fn, flag ? 'HCCL_SOCKET_IFNAME' : 'GLOO_SOCKET_IFNAME', input),
  'socket-ifname#selectorAllows': (fn, m, input, { other }) => {
    const selector = call(fnOf(m, 'parseIfnameSelector'), 'HCCL_SOCKET_IFNAME', input) as { ok: boolean };
    return selector.ok ? call(fn, selector, other) : selector;
  },
  'spod-info#parseSpodInfo': (fn, _m, input) => call(fn, input),
  'sysctl-conf#normalizeSysctlKey': (fn, _m, input) => call(fn, input),
  'sysctl-conf#parseSysctlConf': (fn, _m, input) => call(fn, input),
  'sysctl-conf#sysctlKeyMatches': (fn, _m, input, { other }) => call(fn, input, other),
  'tmpfiles#parseTmpfiles': (fn, _m, input) => call(fn, input),
  'tmpfiles#tmpfilesPathMatches': (fn, _m, input, { other }) => call(fn, input, other),
};

/** The arguments of a `vllm serve` line whose flags are the arbitrary text: what the vllm-args functions read. */
function serveFields(input: string): unknown[] {
  const read = fnOf(modules.get('launch-script')!, 'readLaunchScript');
  const script = call(read, `vllm serve ${input}\n`, {}) as { serve: { args: unknown[] } | null };
  return script.serve?.args ?? [];
}

/** Exports that take raw bytes as well as text (TextInput). */
const TAKES_BYTES = new Set([
  'ascend-files#parseAscendKeyValue',
  'ascend-files#parseDriverVersionInfo',
  'ascend-files#parseFirmwareVersionInfo',
  'ascend-files#parseAscendInstallInfo',
  'ascend-files#parseCannInstallInfo',
  'npu-smi-info#parseNpuSmiInfo',
  'npu-smi-kv#parseNpuSmiKeyValue',
  'npu-smi-mapping#parseNpuSmiMapping',
]);

/** A result is structured: a value (possibly undefined or null for "not this format") and, for a Parsed<T>, ok with a value or a reason. */
function expectStructured(key: string, result: unknown): void {
  if (result !== null && typeof result === 'object' && 'ok' in result) {
    const parsed = result as { ok: boolean; reason?: unknown };
    expect(typeof parsed.ok, key).toBe('boolean');
    if (!parsed.ok) expect(typeof parsed.reason, key).toBe('string');
  }
  // a structured result survives JSON (no cycles): what a check puts in evidence
  if (!(result instanceof Map)) expect(() => JSON.stringify(result), key).not.toThrow();
}

const modules = new Map<string, Module>();

beforeAll(async () => {
  for (const file of readdirSync(PARSERS_DIR).filter((name) => name.endsWith('.ts')).sort()) {
    modules.set(file.replace(/\.ts$/, ''), (await import(new URL(file, PARSERS_DIR).href)) as Module);
  }
});

function exportedFunctions(): string[] {
  return [...modules].flatMap(([name, mod]) => Object.entries(mod).filter(([, value]) => typeof value === 'function').map(([exported]) => `${name}#${exported}`));
}

describe('every parser export under fast-check', () => {
  it('covers every module of src/parsers/ and every function it exports (add a driver for a new one)', () => {
    expect(modules.size).toBeGreaterThanOrEqual(20);
    const exported = exportedFunctions();
    expect(exported.filter((key) => !(key in DRIVERS)), 'exports without a driver').toEqual([]);
    expect(Object.keys(DRIVERS).filter((key) => !exported.includes(key)), 'drivers of exports that no longer exist').toEqual([]);
    const covered = new Set(Object.keys(DRIVERS).map((key) => key.split('#')[0]));
    expect([...modules.keys()].filter((name) => !covered.has(name) && exportedFunctionsOf(name).length > 0)).toEqual([]);
  });

  it('no export throws on arbitrary text, latin1-decoded bytes or recombined fixture lines, and each returns a structured result', () => {
    for (const key of exportedFunctions()) {
      const [name, exported] = key.split('#') as [string, string];
      const mod = modules.get(name)!;
      const fn = mod[exported] as Fn;
      const driver = DRIVERS[key]!;
      fc.assert(
        fc.property(text, fc.integer({ min: -5, max: 500 }), fc.boolean(), text, fc.uint8Array({ maxLength: 64 }), (input, n, flag, other, bytes) => {
          expectStructured(key, driver(fn, mod, input, { n, flag, other, bytes }));
        }),
        { numRuns: 150 },
      );
      if (TAKES_BYTES.has(key)) {
        fc.assert(
          fc.property(textInput, (input) => {
            expectStructured(key, (fn as (i: unknown) => unknown)(input));
          }),
          { numRuns: 100 },
        );
      }
    }
  });

  it('4 MiB of garbage on one line and in short lines: every text parser returns', () => {
    const garbage = Buffer.from(Array.from({ length: 4 * 1024 * 1024 }, (_, i) => (i * 2654435761) >>> 24)).toString('latin1');
    const lines = garbage.replace(/[\s\S]{80}/g, '$&\n');
    for (const key of exportedFunctions()) {
      const [name, exported] = key.split('#') as [string, string];
      const mod = modules.get(name)!;
      for (const input of [garbage, lines]) {
        let result: unknown;
        try {
          result = DRIVERS[key]!(mod[exported] as Fn, mod, input, { n: 100, flag: true, other: input.slice(0, 100_000), bytes: new Uint8Array([1, 2]) });
        } catch (error) {
          // the message may quote the whole input
          throw new Error(`${key} threw on 4 MiB of garbage: ${String((error as Error).message).slice(0, 200)}`);
        }
        expectStructured(key, result);
      }
    }
  });
});

describe('the globs of sysctl.d and tmpfiles.d', () => {
  it('a pattern built to make a regex backtrack for ever is answered at once (the regex of the old matcher did not return)', () => {
    const pattern = `kernel.${'*a'.repeat(25)}*b`;
    expect(sysctlKeyMatches(pattern, `kernel.${'a'.repeat(40)}`)).toBe(false);
    expect(sysctlKeyMatches(pattern, `kernel.${'a'.repeat(40)}b`)).toBe(true);
    expect(tmpfilesPathMatches(`/sys/${'*a'.repeat(25)}*b`, `/sys/${'a'.repeat(40)}`)).toBe(false);
  });

  it('through the built CLI: a sysctl.d key of 1.6 MB with globs is no match, not an "internal error: Invalid regular expression" of tune', async () => {
    const root = untunedTree();
    mkdirSync(join(root, 'etc/sysctl.d'), { recursive: true });
    writeFileSync(join(root, 'etc/sysctl.d/50-odd.conf'), `kernel.${'(*a['.repeat(400_000)} = 1\n`);
    const run = await qprepWith(null, ['tune', '--root', root, '--dry-run', '--format', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'planned', changed: true });
  });

  it('match as the shell would: the same answers as a reference regex on short inputs', () => {
    const piece = fc.constantFrom('a', 'b', '.', '*', '?');
    const word = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
    const subject = fc.array(fc.constantFrom('a', 'b', '.'), { maxLength: 8 }).map((p) => p.join(''));
    fc.assert(
      fc.property(word, subject, (pattern, key) => {
        const reference = new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[^.]*').replace(/\?/g, '[^.]')}$`).test(key);
        expect(sysctlKeyMatches(pattern, key), `${pattern} ~ ${key}`).toBe(pattern.includes('*') || pattern.includes('?') ? reference : pattern === key);
      }),
      { numRuns: 2000 },
    );
    expect(tmpfilesPathMatches('/sys/cpu[!0-1]/x', '/sys/cpu2/x')).toBe(true);
    expect(tmpfilesPathMatches('/sys/cpu[!0-1]/x', '/sys/cpu1/x')).toBe(false);
    expect(tmpfilesPathMatches('/sys/cpu[]]/x', '/sys/cpu]/x')).toBe(true);
  });
});

function exportedFunctionsOf(name: string): string[] {
  return Object.entries(modules.get(name) ?? {})
    .filter(([, value]) => typeof value === 'function')
    .map(([exported]) => exported);
}

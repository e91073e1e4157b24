import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readNodeDocumentBytes, readNodeDocuments } from '../../src/aggregate/documents.js';
import { aggregate } from '../../src/aggregate/analyze.js';
import { parseSnapshotText } from '../../src/app/session.js';
import { parseClusterText } from '../../src/cluster/load.js';
import { QprepError } from '../../src/errors.js';
import { parseProfileText } from '../../src/core/profile.js';
import { builtinProfiles } from '../../src/profiles/index.js';
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
  'ascend-files#parseAtbVersionInfo': (fn, _m, input) => call(fn, input),
  'python-dist#parseCoreMetadata': (fn, _m, input) => call(fn, input),
  'python-dist#parseDirectUrl': (fn, _m, input) => call(fn, input),
  'python-dist#parseEggLink': (fn, _m, input) => call(fn, input),
  'python-dist#parseBuildInfo': (fn, _m, input) => call(fn, input),
  'cpulist#parseCpuList': (fn, _m, input) => call(fn, input),
  'cpulist#readCpuList': (fn, _m, input) => call(fn, input),
  'id-ranges#parseIdRanges': (fn, _m, input, { n }) => call(fn, input, n),
  // the names of a /dev listing, and the devices known before npu-smi: every id returned is one of the inputs', 0..63
  'device-nodes#davinciIds': (fn, _m, input) => {
    const ids = call(fn, input.split(/[\n/ ]/)) as number[];
    expect(ids.every((id) => Number.isInteger(id) && id >= 0 && id <= 63)).toBe(true);
    return ids;
  },
  'device-nodes#devicesBeforeNpuSmi': (fn, m, input, { n, flag, other }) => {
    const nodes = call(fnOf(m, 'davinciIds'), input.split('\n')) as number[];
    const configured = [...other].map((c) => (c.codePointAt(0) ?? 0) % 80 - 8);
    const devices = call(fn, { nodes, configured, visible: flag ? null : [n, n + 1, 0] }) as number[];
    expect(devices.every((id) => nodes.includes(id) || configured.includes(id))).toBe(true);
    return devices;
  },
  'angle-placeholders#quoteAnglePlaceholders': (fn, _m, input) => call(fn, input),
  'server-model#atlasServer': (fn, _m, input) => call(fn, input) ?? null,
  'hccn-conf#parseHccnConf': (fn, _m, input) => call(fn, input),
  'hccn-diag#parseHccnLinkStat': (fn, _m, input) => call(fn, input),
  'hccn-diag#parseHccnKeyValues': (fn, _m, input) => call(fn, input),
  'hccn-diag#parseHccnRoute': (fn, _m, input) => call(fn, input),
  'hccn-link-health#parseHccnOptical': (fn, _m, input) => call(fn, input),
  'hccn-link-health#parseHccnFec': (fn, _m, input) => call(fn, input),
  'hccn-link-health#parseHccnSpeed': (fn, _m, input) => call(fn, input),
  'hccn-link-health#parseHccnStat': (fn, _m, input) => call(fn, input),
  'hccn-link-health#powerMilliwatts': (fn, _m, input) => call(fn, input),
  'hccn-link-health#asctimeWallClockMs': (fn, _m, input) => call(fn, input),
  'hccn-lldp#parseHccnLldp': (fn, _m, input) => call(fn, input),
  'hccn-ping#parseHccnPing': (fn, _m, input) => call(fn, input),
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
  // the same documents as visitJsonLines, one at a time, and at the end whether every line was one
  'json-documents#jsonLines': (fn, _m, input, { bytes, flag }) => {
    const lines = (fn as (bytes: Uint8Array) => Generator<{ value: unknown; line: number }, boolean>)(flag ? bytes : Buffer.from(input, 'utf8'));
    const visited: unknown[] = [];
    for (let next = lines.next(); ; next = lines.next()) {
      if (next.done) return { whole: next.value, visited };
      expect(Number.isInteger(next.value.line) && next.value.line >= 1).toBe(true);
      visited.push(next.value.value);
    }
  },
  'ldconfig#parseLdconfigCache': (fn, _m, input) => call(fn, input),
  'ldconfig#ldFlagsMatchArch': (fn, _m, input, { other }) => call(fn, input, other),
  'launch-script#readLaunchScript': (fn, _m, input, { other }) => call(fn, input, { HOME: other, PATH: '/usr/bin' }),
  'launch-script#evaluateLaunchScript': (fn, _m, input, { other }) => call(fn, call(fnOf(modules.get('shell-script')!, 'parseShellScript'), input), { PATH: other }),
  // the invocations of a script named by the other text, in a launcher made of the input
  'launch-script#invocationsOf': (fn, m, input, { other }) => call(fn, call(fnOf(m, 'readLaunchScript'), input, {}), other),
  'shell-script#parseShellScript': (fn, _m, input) => call(fn, input),
  'shell-script#oversizedScript': (fn, _m, input) => call(fn, input) ?? null,
  'shell-script#overTokenCap': (fn, _m, input) => call(fn, input),
  'shell/lexer#tokenize': (fn, _m, input) => call(fn, input, () => {}),
  'shell/lexer#linesIn': (fn, _m, input) => call(fn, input),
  'shell/statements#buildStatements': (fn, _m, input) => call(fn, call(fnOf(modules.get('shell/lexer')!, 'tokenize'), input, () => {}) ?? [], () => {}),
  'shell/statements#assignmentOf': (fn, _m, input) => {
    const parsed = call(fnOf(modules.get('shell-script')!, 'parseShellScript'), input) as { statements: Array<{ kind: string; words?: unknown[] }> };
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
  'fincore#parseFincoreJson': (fn, _m, input) => call(fn, input),
  'safetensors#safetensorsHeaderLength': (fn, _m, _input, { bytes }) => call(fn, bytes),
  'vllm-source#envDefault': (fn, _m, input, { other }) => call(fn, input, other) ?? null,
  'vllm-source#readsEnv': (fn, _m, input, { other }) => call(fn, input, other),
  'vllm-source#fixedEngineReadyWaitMs': (fn, _m, input) => call(fn, input) ?? null,
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
  'npu-smi-ecc#parseNpuSmiEcc': (fn, _m, input) => call(fn, input),
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
  'ascend-files#parseAtbVersionInfo',
  'python-dist#parseCoreMetadata',
  'python-dist#parseDirectUrl',
  'python-dist#parseEggLink',
  'python-dist#parseBuildInfo',
  'npu-smi-info#parseNpuSmiInfo',
  'npu-smi-kv#parseNpuSmiKeyValue',
  'npu-smi-ecc#parseNpuSmiEcc',
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
  // the modules of sub-folders too (shell/lexer, shell/statements): a parser split in parts stays covered
  const files = (readdirSync(PARSERS_DIR, { recursive: true }) as string[]).filter((name) => name.endsWith('.ts')).sort();
  for (const file of files) {
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

/*
 * The document readers (profile, cluster file, snapshot, the reports given to aggregate) under
 * fast-check: each real document mutated where it stands (a member replaced by any JSON value,
 * removed, or added under a name such as __proto__ or constructor; the text cut short or a
 * character changed). A reader returns its document or throws a QprepError of one line naming
 * the file; any other exception would reach the operator as "internal error".
 */

const EXAMPLES = new URL('../../examples/', import.meta.url);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Mutation {
  path: number[];
  op: 'replace' | 'delete' | 'add' | 'wrap';
  key: string;
  value: Json;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.array(fc.nat(), { maxLength: 7 }),
  op: fc.constantFrom('replace', 'delete', 'add', 'wrap'),
  key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'extends', 'name', 'nodes', 'checks', 'schemaVersion', 'kind', 'devices')),
  value: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
});

/** A copy of `document` with one mutation applied where `path` leads (each step picks a member by index). */
function mutate(document: Json, { path, op, key, value }: Mutation): Json {
  const root = structuredClone(document);
  let parent: Json[] | { [key: string]: Json } | null = null;
  let slot: string | number | null = null;
  let here: Json = root;
  for (const step of path) {
    if (Array.isArray(here) && here.length > 0) {
      parent = here;
      slot = step % here.length;
    } else if (here !== null && typeof here === 'object' && Object.keys(here).length > 0) {
      const keys = Object.keys(here);
      parent = here;
      slot = keys[step % keys.length]!;
    } else break;
    here = (parent as Record<string | number, Json>)[slot]!;
  }
  const container = here !== null && typeof here === 'object' ? here : null;
  const set = (target: Json[] | { [key: string]: Json }, name: string | number, v: Json) => Object.defineProperty(target, name, { value: v, enumerable: true, writable: true, configurable: true });
  switch (op) {
    case 'add':
      if (Array.isArray(container)) container.push(value);
      else if (container) set(container, key, value);
      break;
    case 'delete':
      if (parent && slot !== null) {
        if (Array.isArray(parent)) parent.splice(slot as number, 1);
        else delete parent[slot as string];
      }
      break;
    case 'wrap':
      if (parent && slot !== null) set(parent, slot, [here]);
      else return [root];
      break;
    default:
      if (parent && slot !== null) set(parent, slot, value);
      else return value;
  }
  return root;
}

/** The mutated document as text, sometimes cut short or with one character changed. */
const textMutation = fc.record({ cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), at: fc.double({ min: 0, max: 1, noNaN: true }), char: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), flip: fc.boolean() });

function asText(document: Json, yaml: boolean, edit: { cut: number | undefined; at: number; char: string; flip: boolean }): string {
  let text = yaml ? toYamlish(document) : JSON.stringify(document, null, 1);
  if (edit.flip) {
    const i = Math.floor(edit.at * text.length);
    text = text.slice(0, i) + edit.char + text.slice(i + 1);
  }
  if (edit.cut !== undefined) text = text.slice(0, Math.floor(edit.cut * text.length));
  return text;
}

/** YAML flow style is JSON: the YAML reader reads it, and a profile or cluster file may be written so. */
function toYamlish(document: Json): string {
  return `# mutated\n${JSON.stringify(document)}\n`;
}

/** Calls a reader: what it returns, or the QprepError it throws (a line naming the file, then its hints); anything else fails the property. */
function expectReaderContract(what: string, file: string, read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof QprepError)) throw new Error(`${what} threw ${(error as Error)?.constructor?.name}: ${String((error as Error)?.message).slice(0, 300)}`);
    // the first line is the error and names the file; the lines after it are hints (did you mean ...)
    const [line, ...hints] = error.message.split('\n');
    expect(line, what).toContain(file);
    for (const hint of hints) expect(hint.trim(), what).not.toBe('');
    return error;
  }
}

const profileSeeds: Json[] = [
  ...Object.entries(builtinProfiles).map(([name, profile]) => ({ ...(JSON.parse(JSON.stringify(profile)) as Record<string, Json>), name })),
  // a profile file as an operator writes one: a built-in extended
  { extends: 'qwen3.5-397b-w8a8-a2', name: 'site' },
];
const clusterSeeds: Json[] = readdirSync(new URL('cluster/', EXAMPLES))
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => parseYaml(readFileSync(new URL(`cluster/${name}`, EXAMPLES), 'utf8')) as Json);
const snapshotSeed = JSON.parse(readFileSync(new URL('snapshots/300i-duo-healthy.json', EXAMPLES), 'utf8')) as Json & { report: Json };
/** Reports as qprep check wrote them: the ones embedded in the demo snapshots. */
const reportSeeds: Json[] = ['a2-healthy.json', 'a2-broken.json', 'a2-node2.json'].map((name) => (JSON.parse(readFileSync(new URL(`snapshots/${name}`, EXAMPLES), 'utf8')) as { report: Json }).report);

describe('every document reader under fast-check, real documents as seeds', () => {
  it('seeds: each real document reads as it is', () => {
    for (const seed of profileSeeds) expect(parseProfileText(JSON.stringify(seed), 'seed.json').profile.name).toBeTruthy();
    for (const seed of clusterSeeds) expect(parseClusterText(JSON.stringify(seed), 'seed.json').nodes.length).toBeGreaterThan(1);
    expect(parseSnapshotText(JSON.stringify(snapshotSeed), 'seed.json').kind).toBe('qprep-snapshot');
    const documents = reportSeeds.flatMap((seed, i) => readNodeDocuments({ source: `node${i}.json`, text: JSON.stringify(seed) }));
    expect(aggregate(documents, { now: new Date('2026-12-03T00:00:00Z') }).nodes.length).toBe(3);
  });

  it('profiles: 3,000 mutations, YAML and JSON', () => {
    fc.assert(
      fc.property(fc.constantFrom(...profileSeeds), mutation, textMutation, fc.boolean(), (seed, change, edit, yaml) => {
        const text = asText(mutate(seed, change), yaml, edit);
        expectReaderContract('parseProfileText', 'fuzz.yaml', () => parseProfileText(text, 'fuzz.yaml'));
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('cluster files: 3,000 mutations', () => {
    fc.assert(
      fc.property(fc.constantFrom(...clusterSeeds), mutation, textMutation, fc.boolean(), (seed, change, edit, yaml) => {
        const text = asText(mutate(seed, change), yaml, edit);
        expectReaderContract('parseClusterText', 'fuzz.yaml', () => parseClusterText(text, 'fuzz.yaml'));
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('snapshots: 1,000 mutations of a real recording', () => {
    fc.assert(
      fc.property(mutation, textMutation, (change, edit) => {
        const text = asText(mutate(snapshotSeed, change), false, edit);
        expectReaderContract('parseSnapshotText', 'fuzz.json', () => parseSnapshotText(text, 'fuzz.json'));
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('aggregate inputs: 3,000 mutations of real reports, as text and as bytes, then the cluster verdict over what was read', () => {
    fc.assert(
      fc.property(fc.constantFrom(...reportSeeds), mutation, textMutation, fc.boolean(), (seed, change, edit, asBytes) => {
        const text = asText(mutate(seed, change), false, edit);
        const read = expectReaderContract('readNodeDocuments', 'fuzz.json', () =>
          asBytes ? readNodeDocumentBytes('fuzz.json', Buffer.from(text, 'utf8')) : readNodeDocuments({ source: 'fuzz.json', text }),
        );
        if (Array.isArray(read)) {
          const good = readNodeDocuments({ source: 'node0.json', text: JSON.stringify(reportSeeds[0]) });
          expect(aggregate([...good, ...read], { now: new Date('2026-12-03T00:00:00Z') }).nodes.length).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 3000 },
    );
  }, 120_000);
});

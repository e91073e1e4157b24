// The pure half of scripts/refresh-fault-codes.mjs: the texts of two files of an Ascend/mind-cluster
// checkout in, the extract (knowledge/sources/mind-cluster-fault-codes.json) out; the extract in,
// the table knowledge/fault-codes.json out, as the text of its file. Nothing here reads a file or
// runs git: test/unit/knowledge/fault-codes.test.ts runs the build on the committed extract and
// compares the result with the committed table byte for byte.
//
// The two files (Apache License 2.0, Copyright Huawei Technologies Co., Ltd.; see NOTICE):
// - the device plugin's fault-code table, which sorts the codes into handling levels;
// - the fault-diagnosis knowledge graph, which names and describes many of them, in English and Chinese.

export const SOURCE_REPO = 'Ascend/mind-cluster';
export const LEVELS_PATH = 'component/ascend-device-plugin/build/faultCode.json';
export const MEANINGS_PATH = 'component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json';

/**
 * The handling levels, mildest first: the reverse of the order in which the device plugin's
 * GetFaultTypeByCode (component/ascend-device-plugin/pkg/common/fault_code.go) tests them, so
 * that the worst of several codes is the one furthest down, as the plugin judges a chip with
 * several faults. `key` is the level's list in faultCode.json.
 *
 * `action` is what qprep recommends at that level, from the level's meaning in mind-cluster's
 * "configuring fault detection levels" guide (docs/zh/scheduling/04_usage/04_resumable_training/
 * 03_configuration/01_configuring_fault_detection_levels.md, table 2):
 * - NotHandleFault "对业务无影响的故障，无需处理" (no effect on the workload): monitor; the chip
 *   still reports the fault, so it is watched, not ignored;
 * - SubHealthFault (handled by the job's subHealthyStrategy; "暂不处理"): monitor;
 * - RestartRequest "需要重新执行业务请求" and RestartBusiness "需要重新执行业务": restart-workload;
 * - FreeRestartNPU "待芯片空闲时需复位芯片" and RestartNPU "需立即复位芯片": reset-npu;
 * - PreSeparateNPU "后续不再调度任务到该芯片" (pre-isolate) and SeparateNPU "无法恢复，需要隔离芯片":
 *   isolate-npu.
 * The actions never get milder as the level gets worse, so the worst action of several codes is
 * the action of their worst level.
 */
export const LEVELS = [
  { level: 'NotHandleFault', key: 'NotHandleFaultCodes', action: 'monitor' },
  { level: 'SubHealthFault', key: 'SubHealthFaultCodes', action: 'monitor' },
  { level: 'RestartRequest', key: 'RestartRequestCodes', action: 'restart-workload' },
  { level: 'RestartBusiness', key: 'RestartBusinessCodes', action: 'restart-workload' },
  { level: 'FreeRestartNPU', key: 'FreeRestartNPUCodes', action: 'reset-npu' },
  { level: 'RestartNPU', key: 'RestartNPUCodes', action: 'reset-npu' },
  { level: 'PreSeparateNPU', key: 'PreSeparateNPUCodes', action: 'isolate-npu' },
  { level: 'SeparateNPU', key: 'SeparateNPUCodes', action: 'isolate-npu' },
];

/** The fields of a knowledge-graph entry the table takes. */
const MEANING_FIELDS = ['cause_en', 'cause_zh', 'description_en', 'description_zh'];

/** "0x80e18005", "80E18005" -> "80E18005"; leading zeros dropped (npu-smi pads to 4 digits); undefined for anything else. */
export function normalizeCode(text) {
  const match = /^(?:0x)?([0-9a-f]{1,16})$/i.exec(String(text).trim());
  if (!match) return undefined;
  return match[1].toUpperCase().replace(/^0+(?=.)/, '');
}

const numbered = (text) => text.split('\n').map((line, i) => [i + 1, line]);

/**
 * The extract: every line of the fault-code table (a small file), and of the knowledge graph
 * only the name and description lines of the codes that table lists, each [line, text] verbatim.
 */
export function extractFaultCodeSources({ levelsText, meaningsText, commit, date }) {
  const levels = JSON.parse(levelsText);
  const listed = new Set(LEVELS.flatMap(({ key }) => (levels[key] ?? []).map(normalizeCode)));
  const parsed = JSON.parse(meaningsText)['knowledge-repository'] ?? {};
  const entries = new Map();
  let current;
  for (const [line, text] of numbered(meaningsText)) {
    const key = /^\s*"(0[xX][0-9A-Fa-f]+)"\s*:\s*\{\s*$/.exec(text);
    if (key) {
      const code = normalizeCode(key[1]);
      current = code !== undefined && listed.has(code) && parsed[key[1]] ? { code, key: key[1], line, fields: {} } : undefined;
      // a key written twice: JSON.parse keeps the last, and so does the extract
      if (current) entries.set(code, current);
      continue;
    }
    const field = /^\s*"([a-z_]+)"\s*:\s*(".*")\s*,?\s*$/.exec(text);
    if (!current || !field || !MEANING_FIELDS.includes(field[1]) || current.fields[field[1]]) continue;
    // a line is taken only when it holds the whole value the JSON gives
    if (JSON.parse(field[2]) === parsed[current.key].attribute?.[field[1]]) current.fields[field[1]] = [line, text];
  }
  return {
    repo: SOURCE_REPO,
    commit,
    date,
    description:
      `The lines knowledge/fault-codes.json is built from, at ${SOURCE_REPO} ${commit} (${date}): every line of the device plugin's fault-code table ` +
      `(${LEVELS_PATH}) and, of the fault-diagnosis knowledge graph (${MEANINGS_PATH}), the cause and description lines of the codes that table lists. ` +
      'Apache License 2.0, Copyright Huawei Technologies Co., Ltd. (NOTICE). Written by scripts/refresh-fault-codes.mjs extract; read by its build stage.',
    levels: { path: LEVELS_PATH, lines: numbered(levelsText) },
    meanings: { path: MEANINGS_PATH, entries: [...entries.values()].sort((a, b) => a.line - b.line) },
  };
}

/** The extract as its file holds it: one line per [line, text] pair, so that `git diff` shows the lines that changed. */
export function formatExtract(extract) {
  const pairs = (list, indent) => list.map((pair) => `${indent}${JSON.stringify(pair)}`).join(',\n');
  const entry = (e) =>
    `    {"code": ${JSON.stringify(e.code)}, "key": ${JSON.stringify(e.key)}, "line": ${e.line}, "fields": {\n` +
    Object.entries(e.fields)
      .map(([name, pair]) => `      ${JSON.stringify(name)}: ${JSON.stringify(pair)}`)
      .join(',\n') +
    '\n    }}';
  return (
    '{\n' +
    ` "repo": ${JSON.stringify(extract.repo)},\n "commit": ${JSON.stringify(extract.commit)},\n "date": ${JSON.stringify(extract.date)},\n` +
    ` "description": ${JSON.stringify(extract.description)},\n` +
    ` "levels": {"path": ${JSON.stringify(extract.levels.path)}, "lines": [\n${pairs(extract.levels.lines, '  ')}\n ]},\n` +
    ` "meanings": {"path": ${JSON.stringify(extract.meanings.path)}, "entries": [\n${extract.meanings.entries.map(entry).join(',\n')}\n ]}\n` +
    '}\n'
  );
}

/** Where each code of each level is written: [level index, code as written, line, text], in file order. */
function listedCodes(lines) {
  const found = [];
  let level;
  for (const [line, text] of lines) {
    const opening = /^\s*"(\w+)"\s*:\s*\[/.exec(text);
    if (opening) level = LEVELS.findIndex((l) => l.key === opening[1]);
    if (level === undefined || level < 0) continue;
    const body = opening ? text.slice(opening[0].length) : text;
    for (const match of body.matchAll(/"([^"]*)"/g)) found.push([level, match[1], line, text]);
    if (/\]/.test(body)) level = undefined;
  }
  return found;
}

const source = (extract, path, line, text) => ({ repo: extract.repo, path, ref: extract.commit, line, quote: text.trim() });

/** One row per code: its worst level (as the plugin judges a code listed twice), the action, the meaning where the graph has one. */
function rowsOf(extract) {
  const byCode = new Map();
  for (const [level, written, line, text] of listedCodes(extract.levels.lines)) {
    const code = normalizeCode(written);
    if (code === undefined) throw new Error(`${extract.levels.path}:${line}: "${written}" is not a hexadecimal fault code`);
    const row = byCode.get(code) ?? { code, levels: new Map() };
    if (!row.levels.has(level)) row.levels.set(level, { line, text });
    byCode.set(code, row);
  }
  const meanings = new Map(extract.meanings.entries.map((e) => [e.code, e]));
  return [...byCode.values()]
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map(({ code, levels }) => {
      const worst = Math.max(...levels.keys());
      const where = levels.get(worst);
      const row = { code, level: LEVELS[worst].level };
      const others = [...levels.keys()].filter((l) => l !== worst).sort((a, b) => a - b);
      if (others.length > 0) row.alsoIn = others.map((l) => LEVELS[l].level);
      row.action = LEVELS[worst].action;
      const meaning = meanings.get(code);
      const value = (name) => (meaning?.fields[name] ? JSON.parse(/:\s*(".*")\s*,?\s*$/.exec(meaning.fields[name][1])[1]) : undefined);
      if (value('cause_en') !== undefined && value('cause_zh') !== undefined) row.meaning = { en: value('cause_en'), zh: value('cause_zh') };
      if (value('description_en') !== undefined && value('description_zh') !== undefined) row.description = { en: value('description_en'), zh: value('description_zh') };
      row.source = source(extract, extract.levels.path, where.line, where.text);
      if (row.meaning) row.meaningSource = source(extract, extract.meanings.path, ...meaning.fields.cause_en);
      return row;
    });
}

/** The text of knowledge/fault-codes.json. */
export function buildFaultCodes(extract) {
  const rows = rowsOf(extract);
  const table = {
    table: 'fault-codes',
    description:
      `Ascend fault codes: each code's handling level in the device plugin's fault-code table (${extract.repo} ${LEVELS_PATH} at ${extract.commit}, ${extract.date}), ` +
      'the worst one where a code is listed under two levels (alsoIn: the others), the action qprep recommends at that level (scripts/fault-codes-lib.mjs LEVELS: ' +
      `${LEVELS.map((l) => `${l.level} ${l.action}`).join(', ')}), and, where the fault-diagnosis knowledge graph (${MEANINGS_PATH}) has it, ` +
      'the fault\'s name (meaning) and description in English and Chinese. Apache License 2.0, Copyright Huawei Technologies Co., Ltd. (NOTICE). ' +
      'Generated by scripts/refresh-fault-codes.mjs from knowledge/sources/mind-cluster-fault-codes.json.',
    rows,
  };
  return `${JSON.stringify(table, null, 2)}\n`;
}

// The real start-up logs of test/fixtures/fit-cases/cases.json as hosts for model.fit, and the
// accuracy table of docs/launch-fit.md. Pure: scripts/fit-accuracy.mjs runs the cases on the
// built CLI's modules and writes the page; test/unit/checks/model.fit.cases.test.ts runs them on
// the sources and compares the page with what they give.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const TABLE_START = '<!-- fit-accuracy:start -->';
export const TABLE_END = '<!-- fit-accuracy:end -->';

const GiB = 2 ** 30;
const PY = '/usr/local/python3.11.13';
const NPU_SMI = '/usr/local/bin/npu-smi';

export function loadCases() {
  return JSON.parse(readFileSync(join(REPO, 'test/fixtures/fit-cases/cases.json'), 'utf8'));
}

function capture(name) {
  return readFileSync(join(REPO, 'test/fixtures/ascend', name), 'utf8');
}

/**
 * The capture with the HBM (or, on 310P, DDR) "used / total" of its chips changed: `used` pairs of
 * [row, MB] for given chips (rows counted from 0 in the table's order), `usedAll` for every chip,
 * `total` for every chip's total. The column keeps its width.
 */
export function deriveTable(text, { used = [], usedAll, total } = {}) {
  let row = -1;
  return text
    .split('\n')
    .map((line) => {
      if (!/\b[0-9A-F]{4}:[0-9A-F]{2}:[0-9A-F]{2}\.\d\b/i.test(line)) return line;
      row += 1;
      const pairs = [...line.matchAll(/(\d+)( +\/ +)(\d+)( *)/g)];
      const last = pairs[pairs.length - 1];
      if (!last) return line;
      const forRow = used.find(([r]) => r === row);
      const newUsed = forRow ? forRow[1] : usedAll ?? Number(last[1]);
      const newTotal = total ?? Number(last[3]);
      const width = last[0].length;
      const body = `${newUsed}${last[2]}${newTotal}`;
      const replaced = body + ' '.repeat(Math.max(1, width - body.length));
      return line.slice(0, last.index) + replaced + line.slice(last.index + last[0].length);
    })
    .join('\n');
}

/** The host of a case, as src/host/memory.ts (and the fake host of the tests) take it. */
export function caseHost(c) {
  const table = deriveTable(capture(c.npu.capture), c.npu);
  const files = {
    '/proc/net/tcp': '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n',
    [NPU_SMI]: { kind: 'file', content: 'ELF', mode: 0o755 },
  };
  if (c.vllmAscend) {
    files[`${PY}/bin/vllm`] = { kind: 'file', content: `#!${PY}/bin/python3.11\n`, mode: 0o755 };
    files[`${PY}/bin/python3.11`] = { kind: 'file', content: 'ELF', mode: 0o755 };
    files[`${PY}/lib/python3.11/site-packages/vllm_ascend-${c.vllmAscend}.dist-info/METADATA`] = 'Name: vllm-ascend\n';
  }
  const dir = c.model.dir;
  files[`${dir}/config.json`] = `${JSON.stringify(c.model.config)}\n`;
  const shards = c.model.shardsGiB;
  shards.forEach((gib, i) => {
    files[`${dir}/model-${String(i + 1).padStart(5, '0')}-of-${String(shards.length).padStart(5, '0')}.safetensors`] = { kind: 'file', content: '', size: Math.round(gib * GiB) };
  });
  if (c.model.quantized) files[`${dir}/quant_model_description.json`] = '{}\n';
  return {
    identity: { hostname: `case-${c.id}`, arch: 'aarch64', kernel: '5.10.0' },
    env: { PATH: `${PY}/bin:/usr/local/bin:/usr/bin:/bin`, HOME: '/root' },
    files,
    commands: [{ argv: [NPU_SMI, 'info'], stdout: table }],
  };
}

const pct = (predicted, printed) => (printed === 0 ? null : ((predicted - printed) / Math.abs(printed)) * 100);

/**
 * What a case gives: one row per printed figure. `outcome` is the check's result on the case's
 * host (model.fit's, or launch.env's for the HCCL cases), `fromMemory` the tokens model.fit's KV
 * layout gives for vLLM's own printed KV memory.
 */
export function measure(c, outcome) {
  const evidence = outcome.evidence ?? {};
  const kv = evidence.plan?.kv;
  const rows = [];
  for (const printed of c.printed) {
    const row = { id: c.id, label: printed.label, title: c.title, status: outcome.status, outcome: c.outcome };
    // why a row's figures differ, and why it is not measured end to end
    const note = [printed.note, c.endToEndNote].filter(Boolean).join('; ');
    if (note) row.note = note;
    if (printed.refused) {
      row.printed = printed.refused;
      row.predicted = outcome.status === 'fail' ? `fail: ${outcome.message}` : `${outcome.status}: ${outcome.message}`;
      row.refusedPredicted = outcome.status === 'fail';
    }
    if (printed.neededMB !== undefined) {
      row.printed = `${printed.neededMB} MB`;
      row.predicted = `${evidence.hcclNeededMB} MB (${outcome.status})`;
      row.error = pct(evidence.hcclNeededMB, printed.neededMB);
      row.refusedPredicted = outcome.status === 'fail';
    }
    const memory = printed.kvBytes ?? (printed.kvGiB !== undefined ? printed.kvGiB * GiB : undefined);
    if (printed.kvTokens !== undefined) {
      row.printed = printed.kvTokens.toLocaleString('en-US');
      if (c.endToEnd !== false && evidence.kvTokens !== null && evidence.kvTokens !== undefined) {
        row.predicted = evidence.kvTokens.toLocaleString('en-US');
        row.error = pct(evidence.kvTokens, printed.kvTokens);
      }
      if (memory !== undefined && kv) {
        const blocks = Math.floor(memory / kv.pageBytes / kv.groupSize);
        const groups = kv.groups.reduce((sum, g) => sum + g.groups, 0);
        row.fromMemory = Math.floor(blocks / groups) * kv.blockSize;
        row.fromMemoryError = pct(row.fromMemory, printed.kvTokens);
      }
    } else if (memory !== undefined && !printed.refused) {
      // a KV memory printed without its tokens: the budget is what is compared
      row.printed = `${(memory / GiB).toFixed(2)} GiB`;
      row.predicted = `${(evidence.kvBudgetBytesPerNpu / GiB).toFixed(2)} GiB`;
      row.error = pct(evidence.kvBudgetBytesPerNpu, memory);
    }
    rows.push(row);
  }
  return rows;
}

const fixed = (n) => (n === null || n === undefined ? '' : `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`);
const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The markdown of the accuracy table and the cases not rebuilt. */
export function renderAccuracy(rows, notRebuilt) {
  const lines = [
    TABLE_START,
    '| case | deployment | vLLM printed | qprep, from the host | error | qprep, from vLLM\'s KV memory | error |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const deployment = `${r.title}${r.label ? ` (${r.label})` : ''}`;
    const predicted = r.predicted ?? (r.outcome === 'started' ? 'not rebuilt end to end' : '');
    const fromMemory = r.fromMemory !== undefined ? r.fromMemory.toLocaleString('en-US') : '';
    lines.push(`| ${r.id} | ${cell(deployment)} | ${cell(r.printed)} | ${cell(predicted)} | ${fixed(r.error)} | ${fromMemory} | ${fixed(r.fromMemoryError)} |`);
  }
  const noted = rows.filter((r) => r.note);
  if (noted.length > 0) {
    lines.push('', 'Notes:', '');
    for (const r of noted) lines.push(`- ${r.id}${r.label ? ` (${r.label})` : ''}: ${cell(r.note)}`);
  }
  lines.push('', 'Not rebuilt:', '');
  for (const n of notRebuilt) lines.push(`- ${n.id} (${n.source}): ${n.why}`);
  lines.push(TABLE_END);
  return lines.join('\n');
}

/** The page with its table replaced. */
export function replaceTable(page, table) {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < 0) throw new Error(`docs/launch-fit.md has no ${TABLE_START} ... ${TABLE_END}`);
  return page.slice(0, start) + table + page.slice(end + TABLE_END.length);
}

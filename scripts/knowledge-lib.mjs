// The pure half of scripts/refresh-knowledge.mjs: the committed extract of a vllm-ascend
// checkout (knowledge/sources/vllm-ascend.json) and the reviewed fields of the tables in, the
// tables of knowledge/ out, as the text of their files. Nothing here reads a file or runs git:
// test/unit/knowledge/refresh.test.ts runs it on the committed extract and compares the result
// with the committed tables byte for byte.

const REPO = 'vllm-project/vllm-ascend';

/** The tables the build writes, in the order it writes them. */
export const TABLES = ['releases', 'hardware', 'models', 'rules', 'quantization'];

// ---------------------------------------------------------------------------------------------
// Versions of vllm-ascend: "v0.13.0rc3", "v0.7.3.post1", "main" (after every tag)

/** PEP 440 order of release tags, enough for vllm-ascend's: X.Y.Z[.W][rcN][.postN]. */
export function parseVersion(text) {
  const match = /^v?(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev(\d+))?(?:\+.*)?$/i.exec(text.trim());
  if (!match) return undefined;
  const release = match[1].split('.').map(Number);
  while (release.length < 3) release.push(0);
  const pre = match[2] ? { kind: match[2].toLowerCase(), n: Number(match[3]) } : undefined;
  return { release, pre, post: match[4] !== undefined ? Number(match[4]) : undefined, dev: match[5] !== undefined ? Number(match[5]) : undefined };
}

const PRE_ORDER = { a: 0, b: 1, rc: 2 };

/** <0, 0, >0; "main" sorts after every version; unparsable text after main, by name. */
export function compareVersions(a, b) {
  if (a === b) return 0;
  const pa = a === 'main' ? undefined : parseVersion(a);
  const pb = b === 'main' ? undefined : parseVersion(b);
  if (!pa || !pb) {
    const rank = (text, parsed) => (parsed ? 0 : text === 'main' ? 1 : 2);
    const diff = rank(a, pa) - rank(b, pb);
    return diff !== 0 ? diff : a < b ? -1 : a > b ? 1 : 0;
  }
  const length = Math.max(pa.release.length, pb.release.length);
  for (let i = 0; i < length; i++) {
    const diff = (pa.release[i] ?? 0) - (pb.release[i] ?? 0);
    if (diff !== 0) return diff;
  }
  // a dev release comes before its pre-releases, a pre-release before the release, the release before its posts
  const phase = (p) => (p.dev !== undefined && !p.pre && p.post === undefined ? -1 : p.pre ? 0 : 1);
  if (phase(pa) !== phase(pb)) return phase(pa) - phase(pb);
  if (pa.pre && pb.pre) {
    const diff = PRE_ORDER[pa.pre.kind] - PRE_ORDER[pb.pre.kind] || pa.pre.n - pb.pre.n;
    if (diff !== 0) return diff;
  }
  const diff = (pa.post ?? -1) - (pb.post ?? -1);
  if (diff !== 0) return diff;
  if (pa.dev === pb.dev) return 0;
  return pa.dev === undefined ? 1 : pb.dev === undefined ? -1 : pa.dev - pb.dev;
}

// ---------------------------------------------------------------------------------------------
// The extract: per ref and part, the lines taken from one file

/** The lines of one part at one ref, following `sameAs` to the ref that holds them. */
function partLines(extract, ref, part) {
  const entry = extract.parts.find((p) => p.ref === ref && p.part === part);
  if (!entry) return undefined;
  if (entry.sameAs) return { ...partLines(extract, entry.sameAs, part), ref };
  return { path: entry.path, lines: entry.lines, ref };
}

function commitOf(extract, ref) {
  return extract.refs.find((r) => r.ref === ref).commit;
}

/** A tag is cited by its name, main (which moves) by its commit. */
function sourceRef(extract, ref) {
  return ref === 'main' ? commitOf(extract, 'main') : ref;
}

function source(extract, ref, path, line, quote) {
  const row = { repo: REPO, path, ref: sourceRef(extract, ref) };
  if (line !== undefined) row.line = line;
  if (quote !== undefined) row.quote = quote;
  return row;
}

/** The cells of a pipe-table row, trimmed; undefined for a line that is not a row. */
function cells(text) {
  const line = text.trim();
  if (!line.startsWith('|')) return undefined;
  const parts = line.split('|').map((c) => c.trim());
  parts.shift();
  if (line.endsWith('|')) parts.pop();
  return parts;
}

const isSeparator = (row) => row.every((c) => /^:?-{2,}:?$/.test(c) || c === '');
const nullIfNa = (text) => (text === undefined || text === '' || /^N\/A$/i.test(text) ? null : text);

// ---------------------------------------------------------------------------------------------
// releases.json

/** The matrix rows of a ref's versioning policy, keyed by the "vLLM Ascend" cell. */
function matrixRows(extract, ref) {
  const part = partLines(extract, ref, 'compat-matrix');
  if (!part) return new Map();
  const rows = new Map();
  let header;
  for (const [line, text] of part.lines) {
    const row = cells(text);
    if (!row) continue;
    if (/^vLLM Ascend$/i.test(row[0])) {
      header = row.map((c) => c.toLowerCase());
      continue;
    }
    if (!header || isSeparator(row)) continue;
    const at = (name) => {
      let i = header.indexOf(name);
      if (i < 0) i = header.findIndex((h) => h.startsWith(name));
      return i < 0 ? undefined : row[i];
    };
    const torch = (at('pytorch/torch_npu') ?? '').split('/').map((s) => s.trim());
    rows.set(row[0], {
      vllm: nullIfNa(at('vllm')),
      python: nullIfNa(at('python')),
      cann: nullIfNa(at('stable cann') ?? at('cann')),
      torch: nullIfNa(torch[0]),
      torchNpu: nullIfNa(torch[1]),
      tritonAscend: nullIfNa(at('triton ascend')),
      mooncake: nullIfNa(at('mooncake')),
      source: source(extract, ref, part.path, line, text.trim()),
    });
  }
  return rows;
}

/** The main row of the matrix is a template of mkdocs `extra:` values and .github files. */
function mainRow(extract) {
  const part = partLines(extract, 'main', 'main-versions');
  if (!part) return undefined;
  const values = new Map();
  let first;
  for (const [line, text] of part.lines) {
    const extra = /^\s*(main_\w+):\s*"?([^"]*)"?\s*$/.exec(text);
    if (extra) {
      values.set(extra[1], extra[2]);
      first ??= { line, text: text.trim() };
    }
  }
  const tag = partLines(extract, 'main', 'vllm-release-tag');
  const torch = (values.get('main_pytorch_torch_npu_version') ?? '').split('/').map((s) => s.trim());
  return {
    vllm: tag ? tag.lines[0][1].trim() : null,
    python: nullIfNa(values.get('main_python_version')),
    cann: nullIfNa(values.get('main_cann_version')),
    torch: nullIfNa(torch[0]),
    torchNpu: nullIfNa(torch[1]),
    tritonAscend: nullIfNa(values.get('main_triton_ascend_version')),
    mooncake: null,
    source: first ? source(extract, 'main', part.path, first.line, first.text) : source(extract, 'main', part.path),
  };
}

const TAB = /^\s*(?:===\s*"([^"]+)"|:{3,}\{tab-item\}\s*(.+?))\s*$/;

/** The Requirements of a ref's installation page: Python, and CANN / torch-npu per hardware tab. */
function installation(extract, ref) {
  const part = partLines(extract, ref, 'installation');
  if (!part) return undefined;
  const result = { python: null, pythonSource: undefined, tabs: [] };
  let tab = { name: null, cann: null, torchNpu: null, torch: null, source: undefined };
  const tabs = [tab];
  for (const [line, text] of part.lines) {
    const python = /^\s*-\s*Python:\s*(.+?)\s*$/.exec(text);
    if (python) {
      result.python ??= python[1];
      result.pythonSource ??= source(extract, ref, part.path, line, text.trim());
      continue;
    }
    const tabName = TAB.exec(text);
    if (tabName) {
      tab = { name: tabName[1] ?? tabName[2], cann: null, torchNpu: null, torch: null, source: undefined };
      tabs.push(tab);
      continue;
    }
    const row = cells(text);
    if (!row || row.length < 2) continue;
    const value = row[1].replace(/^[=>< ]+/, '').trim();
    if (/^CANN$/i.test(row[0])) {
      tab.cann = value;
      tab.source = source(extract, ref, part.path, line, text.trim());
    } else if (/^(torch-npu|TorchNPU|torch_npu)$/i.test(row[0])) tab.torchNpu = value;
    else if (/^torch$/i.test(row[0])) tab.torch = value;
  }
  result.tabs = tabs.filter((t) => t.cann !== null);
  return result;
}

function buildReleases(extract) {
  const newest = matrixRows(extract, 'main');
  const rows = [];
  for (const { ref, commit, date } of extract.refs) {
    const install = installation(extract, ref);
    let row;
    let listed;
    if (ref === 'main') {
      row = mainRow(extract);
      listed = 'main-row';
    } else if (newest.has(ref)) {
      row = newest.get(ref);
      listed = 'matrix';
    } else if (matrixRows(extract, ref).has(ref)) {
      row = matrixRows(extract, ref).get(ref);
      listed = 'own-matrix';
    }
    if (!row && install && install.tabs.length > 0) {
      const tab = install.tabs[0];
      const tag = partLines(extract, ref, 'vllm-release-tag');
      row = {
        vllm: tag ? tag.lines[0][1].trim() : null,
        python: install.python,
        cann: tab.cann,
        torch: tab.torch,
        torchNpu: tab.torchNpu,
        tritonAscend: null,
        mooncake: null,
        source: tab.source,
      };
      listed = 'installation';
    }
    const hardwareCann =
      install && install.tabs.some((t) => t.name !== null)
        ? install.tabs.filter((t) => t.name !== null).map((t) => ({ hardware: t.name, cann: t.cann, torchNpu: t.torchNpu, source: t.source }))
        : [];
    rows.push({
      version: ref,
      commit,
      date,
      listed: listed ?? 'none',
      vllm: row?.vllm ?? null,
      python: row?.python ?? install?.python ?? null,
      cann: row?.cann ?? null,
      torch: row?.torch ?? null,
      torchNpu: row?.torchNpu ?? null,
      tritonAscend: row?.tritonAscend ?? null,
      mooncake: row?.mooncake ?? null,
      hardwareCann,
      source: row?.source ?? install?.pythonSource ?? source(extract, ref, 'docs/source/installation.md'),
    });
  }
  return {
    table: 'releases',
    description:
      'Every vllm-ascend release tag (and main) in version order, with the vLLM, Python, CANN, torch and torch_npu it was released for: ' +
      'the row of the release compatibility matrix at main (docs/source/community/versioning_policy.md), else the row of the tag\'s own matrix, ' +
      'else the Requirements of the tag\'s installation page; hardwareCann is the CANN and torch_npu per hardware tab of the tag\'s installation page. ' +
      'Generated by scripts/refresh-knowledge.mjs from knowledge/sources/vllm-ascend.json.',
    rows,
  };
}

// ---------------------------------------------------------------------------------------------
// hardware.json

/** The family a FAQ bullet names; the 310B and first-generation 910 lines are tested before A2. */
function familyOfLine(text) {
  if (/310b|200I A2/i.test(text)) return '310B';
  if (/Ascend 910,|910 Pro ?B|kernels-910\)/i.test(text)) return '910';
  if (/300I|310P|310I/i.test(text)) return '310P';
  if (/\bA3\b/.test(text)) return 'A3';
  if (/\bA2\b/.test(text)) return 'A2';
  return undefined;
}

function buildHardware(extract) {
  const rows = [];
  for (const { ref } of extract.refs) {
    const part = partLines(extract, ref, 'faq-devices');
    const seen = new Set();
    if (part) {
      let below = false;
      for (const [line, text] of part.lines) {
        if (/NOT supported/i.test(text) && !/^\s*-/.test(text)) {
          below = true;
          continue;
        }
        if (!/^\s*-\s/.test(text)) continue;
        const family = familyOfLine(text);
        if (!family || seen.has(family)) continue;
        seen.add(family);
        const status = below ? 'unsupported' : /\[Experimental\]/i.test(text) ? 'experimental' : 'supported';
        rows.push({ version: ref, family, status, source: source(extract, ref, part.path, line, text.trim()) });
      }
    }
    // the 950 is named by the support matrix's hardware tabs, not by the FAQ
    const matrix = partLines(extract, ref, 'supported-models');
    if (matrix && !seen.has('950')) {
      const tab = matrix.lines.find(([, text]) => TAB.test(text) && /950/.test(text));
      if (tab) rows.push({ version: ref, family: '950', status: 'supported', source: source(extract, ref, matrix.path, tab[0], tab[1].trim()) });
    }
  }
  return {
    table: 'hardware',
    description:
      'The NPU families each vllm-ascend release supports, from the FAQ "What devices are currently supported?" (docs/source/faqs.md): ' +
      'supported, experimental, or unsupported (the "NOT supported yet" list: first-generation Ascend 910 and Atlas 200I A2 / 310B); ' +
      'the Ascend 950 from the hardware tabs of the support matrix. Families: A2, A3, 310P, 910 (first generation: 910A, 910 Pro B, plain 910B), 310B, 950. ' +
      'Generated by scripts/refresh-knowledge.mjs from knowledge/sources/vllm-ascend.json.',
    rows,
  };
}

// ---------------------------------------------------------------------------------------------
// models.json: reviewed families, listed per release from the support matrix

/** The hardware a support-matrix row is for: its tab, its Supported Hardware cell, or every family. */
function rowHardware(tab, header, row) {
  const i = header ? header.findIndex((h) => /^supported hardware$/i.test(h)) : -1;
  const text = `${tab ?? ''} ${i >= 0 ? (row[i] ?? '') : ''}`;
  const found = [];
  if (/950/.test(text)) found.push('950');
  if (/300I|310P|Atlas inference products/i.test(text)) found.push('310P');
  if (/A2|A3/.test(text) || (!/950|300I|310P|Atlas inference/i.test(text) && text.trim() === '')) found.push('A2/A3');
  return found.length > 0 ? found : ['A2/A3'];
}

/** Rows of the support matrix at a ref: model cell, support cell, hardware, line. */
function matrixModels(extract, ref) {
  const part = partLines(extract, ref, 'supported-models');
  if (!part) return [];
  const found = [];
  let header;
  let tab;
  for (const [line, text] of part.lines) {
    if (/^#/.test(text.trim())) {
      tab = undefined;
      continue;
    }
    const tabName = TAB.exec(text);
    if (tabName) {
      tab = tabName[1] ?? tabName[2];
      continue;
    }
    const row = cells(text);
    if (!row) continue;
    if (/^Model$/i.test(row[0])) {
      header = row.map((c) => c.replace(/\s+/g, ' '));
      continue;
    }
    if (isSeparator(row)) continue;
    const supportAt = header ? header.findIndex((h) => /^Support(ed)?$/i.test(h)) : 1;
    found.push({ model: row[0], support: row[supportAt >= 0 ? supportAt : 1] ?? '', hardware: rowHardware(tab, header, row), line, text: text.trim(), path: part.path });
  }
  return found;
}

function buildModels(extract, reviewed) {
  const rows = reviewed.rows.map((family) => {
    const pattern = new RegExp(family.matrix, 'i');
    const listedIn = {};
    let first;
    for (const { ref } of extract.refs) {
      const hits = matrixModels(extract, ref).filter((m) => pattern.test(m.model) && !/❌/.test(m.support));
      for (const hit of hits) {
        for (const hardware of hit.hardware) {
          listedIn[hardware] ??= [];
          if (!listedIn[hardware].includes(ref)) listedIn[hardware].push(ref);
        }
      }
      if (hits.length > 0) first ??= { ref, hit: hits[0] };
    }
    const ordered = Object.fromEntries(Object.keys(listedIn).sort().map((k) => [k, listedIn[k]]));
    return {
      family: family.family,
      modelTypes: family.modelTypes,
      architectures: family.architectures,
      names: family.names,
      matrix: family.matrix,
      since: family.since,
      identitySources: family.identitySources,
      firstListed: first?.ref ?? null,
      listedIn: ordered,
      source: first ? source(extract, first.ref, first.hit.path, first.hit.line, first.hit.text) : family.since.source,
    };
  });
  return { table: 'models', description: reviewed.description, rows };
}

// ---------------------------------------------------------------------------------------------
// rules.json and quantization.json: reviewed rules, their statements found per release

function globToRegExp(glob) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') out += '[^/]*';
    else out += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The extract's hits of a rule's patterns: per ref, the lines (path, line, text). */
function ruleHits(extract, rule) {
  const hits = new Map();
  for (const entry of extract.rules.filter((r) => r.rule === rule.id)) {
    const lines = entry.sameAs ? extract.rules.find((r) => r.rule === rule.id && r.ref === entry.sameAs).hits : entry.hits;
    hits.set(entry.ref, lines);
  }
  return hits;
}

function buildRule(extract, rule) {
  const hits = ruleHits(extract, rule);
  const refs = extract.refs.map((r) => r.ref).filter((ref) => (hits.get(ref) ?? []).length > 0);
  // the same statement over consecutive releases is one entry
  const statements = [];
  for (const ref of refs) {
    const [path, line, text] = hits.get(ref)[0];
    const last = statements[statements.length - 1];
    if (last && last.quote === text.trim() && last.path === path) last.refs.push(ref);
    else statements.push({ quote: text.trim(), path, refs: [ref], line, ref });
  }
  const reported = (rule.reports ?? []).map((r) => r.version).filter((v) => v !== undefined);
  const bounds = [...refs, ...reported].sort(compareVersions);
  const newest = refs[refs.length - 1];
  let ruleSource = rule.source ?? null;
  if (newest !== undefined) {
    const [path, line, text] = hits.get(newest)[0];
    ruleSource = source(extract, newest, path, line, text.trim());
  }
  const from = rule.from ?? bounds[0];
  const to = rule.until ?? bounds[bounds.length - 1];
  return {
    id: rule.id,
    summary: rule.summary,
    severity: rule.severity,
    ...(rule.outside ? { outside: rule.outside } : {}),
    whenUnknown: rule.whenUnknown,
    appliesTo: rule.appliesTo,
    ...(rule.params ? { params: rule.params } : {}),
    ...(rule.from ? { from: rule.from } : {}),
    ...(rule.until ? { until: rule.until } : {}),
    ...(rule.match ? { match: rule.match } : {}),
    ...(rule.reports ? { reports: rule.reports } : {}),
    statedIn: statements.map((s) => ({ refs: s.refs, path: s.path, quote: s.quote })),
    applies: from !== undefined && to !== undefined ? { from, to } : null,
    source: ruleSource,
  };
}

function buildRules(extract, reviewed) {
  return { table: reviewed.table, description: reviewed.description, rows: reviewed.rows.map((rule) => buildRule(extract, rule)) };
}

// ---------------------------------------------------------------------------------------------

/** Every table's file text from the extract and the reviewed tables (their reviewed fields are kept). */
export function buildKnowledge(extract, reviewed) {
  const tables = {
    releases: buildReleases(extract),
    hardware: buildHardware(extract),
    models: buildModels(extract, reviewed.models),
    rules: buildRules(extract, reviewed.rules),
    quantization: buildRules(extract, reviewed.quantization),
  };
  return Object.fromEntries(TABLES.map((name) => [name, `${JSON.stringify(tables[name], null, 2)}\n`]));
}

// ---------------------------------------------------------------------------------------------
// What the extract stage takes from each file, shared with it so that both read the same parts

/** The lines of `text` (1-based) that a part keeps. */
export function selectLines(part, text, context = {}) {
  const lines = text.split('\n');
  const picked = [];
  const keep = (i) => picked.push([i + 1, lines[i]]);
  switch (part) {
    case 'compat-matrix': {
      // the release compatibility matrix: its table, up to the next heading
      const start = lines.findIndex((l) => /^##+\s+Release compatibility matrix/i.test(l));
      if (start < 0) return picked;
      for (let i = start + 1; i < lines.length && !/^##\s/.test(lines[i]); i++) {
        if (!lines[i].trim().startsWith('|')) continue;
        const row = cells(lines[i]);
        // the header and this release's row, or every row at the newest ref
        if (context.all || /^vLLM Ascend$/i.test(row[0]) || row[0] === context.ref) keep(i);
      }
      return picked;
    }
    case 'installation': {
      const start = lines.findIndex((l) => /^##\s+Requirements/.test(l));
      if (start < 0) return picked;
      for (let i = start + 1; i < lines.length && !/^##\s/.test(lines[i]); i++) {
        const line = lines[i];
        const row = cells(line);
        if (/^\s*-\s*Python:/.test(line) || TAB.test(line) || (row && /^(CANN|torch-npu|TorchNPU|torch_npu|torch|NNAL)$/i.test(row[0] ?? ''))) keep(i);
      }
      return picked;
    }
    case 'faq-devices': {
      const start = lines.findIndex((l) => /^###\s.*What devices are currently supported/i.test(l));
      if (start < 0) return picked;
      for (let i = start + 1; i < lines.length && !/^#{1,3}\s/.test(lines[i]); i++) if (lines[i].trim() !== '') keep(i);
      return picked;
    }
    case 'supported-models': {
      const patterns = context.families.map((f) => new RegExp(f, 'i'));
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        const row = cells(line);
        if (/^#{2,}\s/.test(line) || TAB.test(line)) keep(i);
        else if (row && (/^Model$/i.test(row[0]) || patterns.some((p) => p.test(row[0])))) keep(i);
      }
      return picked;
    }
    case 'main-versions':
      for (let i = 0; i < lines.length; i++) if (/^\s*main_\w+:/.test(lines[i])) keep(i);
      return picked;
    case 'vllm-release-tag':
      if (lines[0] && lines[0].trim() !== '') keep(0);
      return picked;
    default:
      throw new Error(`unknown part ${part}`);
  }
}

/** Does a rule's match take this file? */
export function ruleTakes(match, path) {
  return match.paths.some((glob) => globToRegExp(glob).test(path));
}

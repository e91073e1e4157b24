import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { ruleEvidence, type RuleJudgement } from '../src/knowledge/judge.js';
import { cannInstall } from '../src/probes/ascend-versions.js';
import { launchView, noLaunchScript, type LaunchView } from '../src/probes/launch.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { envText, mooncakeConnectors, rdmaTimeoutMs, type MooncakeConnector } from '../src/probes/mooncake.js';
import { pythonSite } from '../src/probes/python.js';
import { compareAscendVersions } from '../src/util/ascend-version.js';
import { summarizeList } from '../src/util/text.js';

type Text = Catalogue['checks']['launch.mooncake'];

interface Problem {
  level: 'fail' | 'warn';
  text: (t: Text) => string;
  fix: (t: Text) => string;
}

/** What the rules read and find, for one run. */
interface Scan {
  ctx: CheckContext;
  view: LaunchView;
  connectors: MooncakeConnector[];
  problems: Problem[];
  checked: Array<(t: Text) => string>;
  evidence: Record<string, unknown>;
}

const number = (text: string | null | undefined): number | undefined => (text && /^\d+$/.test(text) ? Number(text) : undefined);

/** A rule judged for the installed release, recorded in the evidence; null when it does not hold there. */
async function rule(scan: Scan, id: string): Promise<RuleJudgement | null> {
  const judged = await launchRule(scan.ctx, id);
  (scan.evidence.rules as unknown[]).push(ruleEvidence(judged));
  return judged.verdict === 'fail' || judged.verdict === 'warn' ? judged : null;
}

function level(judged: RuleJudgement): Problem['level'] {
  return judged.verdict === 'fail' ? 'fail' : 'warn';
}

function note(scan: Scan, judged: RuleJudgement, t: Text): string {
  return ruleNote(judged, t === en.checks['launch.mooncake'] ? en.probes.launch : scan.ctx.text.probes.launch);
}

/** Rule mooncake.ascend-direct-cann: the Ascend direct transport needs a CANN newer than 8.3.RC1. */
async function checkCann(scan: Scan): Promise<void> {
  const judged = await rule(scan, 'mooncake.ascend-direct-cann');
  if (!judged) return;
  const cann = await cannInstall(scan.ctx);
  const version = cann.found ? cann.info.version : null;
  scan.evidence.cann = version;
  const above = String(judged.rule.params?.cannAbove ?? '8.3.RC1');
  if (!version) return;
  const order = compareAscendVersions(version, above);
  if (order === undefined || order > 0) {
    scan.checked.push((t) => t.cannAbove({ version, above }));
    return;
  }
  scan.problems.push({ level: level(judged), text: (t) => t.cannTooOld({ version, above, rule: note(scan, judged, t) }), fix: (t) => t.cannFix({ above }) });
}

/** Rule mooncake.transfer-timeout: ASCEND_TRANSFER_TIMEOUT above 4.096 us x 2^HCCL_RDMA_TIMEOUT x 7. */
async function checkTransferTimeout(scan: Scan): Promise<void> {
  const judged = await rule(scan, 'mooncake.transfer-timeout');
  if (!judged) return;
  const params = judged.rule.params ?? {};
  const env = scan.view.env;
  const rdmaText = envText(env, 'HCCL_RDMA_TIMEOUT');
  const transferText = envText(env, 'ASCEND_TRANSFER_TIMEOUT');
  if (rdmaText === null || transferText === null) return;
  // with neither set, the default transfer timeout is the installed Mooncake's (3000 ms in older
  // releases of its Ascend transport, 10000 ms after Mooncake #1039): not judged, and said so
  if (rdmaText === undefined && transferText === undefined) {
    scan.checked.push((t) => t.transferDefaults);
    return;
  }
  const rdma = number(rdmaText) ?? Number(params.hcclRdmaTimeoutDefault ?? 20);
  const transfer = number(transferText) ?? Number(params.transferTimeoutDefaultMs ?? 10000);
  const retries = Number(params.retries ?? 7);
  const needMs = rdmaTimeoutMs(rdma) * retries;
  const need = (needMs / 1000).toFixed(1);
  const said = { transfer, transferSet: transferText !== undefined, rdma, rdmaSet: rdmaText !== undefined, need, retries };
  scan.evidence.transferTimeout = { ...said, needMs: Math.round(needMs) };
  if (transfer > needMs) {
    scan.checked.push((t) => t.transferAbove(said));
    return;
  }
  const enough = Math.ceil(needMs / 1000) * 1000 + 1000;
  scan.problems.push({
    level: level(judged),
    text: (t) => t.transferShort({ ...said, rule: note(scan, judged, t) }),
    fix: (t) => t.transferFix({ script: scan.view.name, enough }),
  });
}

/** Rule mooncake.connect-timeout: ASCEND_CONNECT_TIMEOUT about 500 ms per decode card. */
async function checkConnectTimeout(scan: Scan): Promise<void> {
  const cards = Math.max(0, ...scan.connectors.map((c) => c.decodeCards ?? 0));
  if (cards === 0) return;
  const judged = await rule(scan, 'mooncake.connect-timeout');
  if (!judged) return;
  const params = judged.rule.params ?? {};
  const text = envText(scan.view.env, 'ASCEND_CONNECT_TIMEOUT');
  if (text === null) return;
  // unset: the installed Mooncake's default (see the transfer timeout), not judged
  if (text === undefined) {
    scan.checked.push((t) => t.connectDefault({ cards }));
    return;
  }
  const connect = number(text) ?? Number(params.connectTimeoutDefaultMs ?? 10000);
  const perCard = Number(params.msPerCard ?? 500);
  const need = perCard * cards;
  const said = { connect, set: text !== undefined, cards, perCard, need };
  scan.evidence.connectTimeout = said;
  if (connect >= need) {
    scan.checked.push((t) => t.connectEnough(said));
    return;
  }
  scan.problems.push({ level: level(judged), text: (t) => t.connectShort({ ...said, rule: note(scan, judged, t) }), fix: (t) => t.connectFix({ script: scan.view.name, need }) });
}

/** The mooncake package directories of the launch's Python. */
async function mooncakeDirs(scan: Scan): Promise<string[]> {
  const site = await pythonSite(scan.ctx, scan.view);
  const found: string[] = [];
  for (const dir of site.sitePackages) {
    const stat = await scan.ctx.host.stat(`${dir}/mooncake`);
    if (stat.ok && stat.value.kind === 'directory') found.push(`${dir}/mooncake`);
  }
  return found;
}

/**
 * Rule mooncake.ld-library-path: the directory of Mooncake's libraries on LD_LIBRARY_PATH. Judged
 * where the launch's Python has Mooncake installed (this is the serving environment); without it
 * the connector cannot be loaded at all, which the pass message says.
 */
async function checkLibraryPath(scan: Scan): Promise<void> {
  const judged = await rule(scan, 'mooncake.ld-library-path');
  if (!judged) return;
  const text = envText(scan.view.env, 'LD_LIBRARY_PATH');
  if (text === null) return;
  const installed = await mooncakeDirs(scan);
  scan.evidence.mooncakePackage = installed;
  if (installed.length === 0) {
    scan.checked.push((t) => t.noPackage);
    return;
  }
  const dirs = (text ?? '').split(':').map((d) => d.replace(/\/+$/, '')).filter(Boolean);
  const holds = dirs.filter((d) => d === '/usr/local/lib' || d === '/usr/local/lib64' || installed.includes(d));
  scan.evidence.ldLibraryPath = { value: text ?? null, mooncakeDirs: holds };
  if (holds.length > 0) {
    scan.checked.push((t) => t.libraryPathHolds({ dirs: holds.join(', ') }));
    return;
  }
  const dir = installed[0]!;
  scan.problems.push({
    level: level(judged),
    text: (t) => t.libraryPathMissing({ value: text ?? null, dir, rule: note(scan, judged, t) }),
    fix: (t) => t.libraryPathFix({ script: scan.view.name, dir }),
  });
}

function verdict(scan: Scan): Outcome {
  const { ctx, view, problems, checked, evidence } = scan;
  const t = ctx.text.checks['launch.mooncake'];
  const english = en.checks['launch.mooncake'];
  const names = [...new Set(scan.connectors.map((c) => c.name))].join(', ');
  if (problems.length === 0) {
    return pass(t.passed({ script: view.name, connectors: names, checked: checked.length > 0 ? summarizeList(checked.map((c) => c(t)), 4, ctx.text.report.list) : null }), { evidence });
  }
  const ordered = [...problems.filter((p) => p.level === 'fail'), ...problems.filter((p) => p.level === 'warn')];
  const details = {
    expected: "what Mooncake's Ascend transport needs: CANN, timeouts, LD_LIBRARY_PATH",
    actual: summarizeList(ordered.map((p) => p.text(english)), 2),
    remediation: [...new Set(ordered.map((p) => p.fix(t)))].join('\n'),
    evidence,
  };
  const message = t.andMore({ first: ordered[0]!.text(t), more: ordered.length - 1 });
  return ordered[0]!.level === 'fail' ? fail(message, details) : warn(message, details);
}

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.mooncake',
  category: 'launch',
  order: 65,
  level: 'required',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['launch.mooncake'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    if (!view.serve) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const connectors = mooncakeConnectors(view.serve.parsed);
    if (connectors.length === 0) return skip(t.noMooncake({ script: view.name }), { remediation: t.noMooncakeFix, evidence: { script: view.input.file } });
    const scan: Scan = { ctx, view, connectors, problems: [], checked: [], evidence: { script: view.input.file, connectors, rules: [] } };
    await checkCann(scan);
    await checkTransferTimeout(scan);
    await checkConnectTimeout(scan);
    await checkLibraryPath(scan);
    return verdict(scan);
  },
});

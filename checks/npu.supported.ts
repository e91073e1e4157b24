import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import { hardwareOf } from '../src/knowledge/judge.js';
import { hardwareTable, type HardwareRow } from '../src/knowledge/hardware.js';
import { describeSource } from '../src/knowledge/source.js';
import { hardwareOfTable, type HardwareIdentity, type NpuHardware } from '../src/probes/hardware.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { npuInventory } from '../src/probes/npu.js';
import { rulesHere, type RuleHere, type RulesHere } from '../src/probes/rules.js';
import { installedStack } from '../src/probes/stack.js';

type Text = (typeof en.checks)['npu.supported'];

/** vllm_ascend/_build_info.py's __device_type__ (AscendDeviceType of vllm_ascend/device/hardware.py) as the FAQ's family. */
const BUILD_DEVICE_TYPES: Record<string, NpuHardware> = { A2: 'A2', A3: 'A3', _310P: '310P', A5: '950' };

interface Judged {
  identity: HardwareIdentity;
  hardware: NpuHardware;
  faq: { release: string; rows: HardwareRow[] };
  row: HardwareRow | undefined;
  here: RulesHere;
}

function supportedList(rows: readonly HardwareRow[], t: Text): string {
  const listed = rows.filter((r) => r.status !== 'unsupported').map((r) => (r.status === 'experimental' ? t.experimentalFamily({ family: r.family }) : r.family));
  return listed.join(', ');
}

/** Which release's FAQ judged it, said the way the rule tags say it (installed, judged as, or assumed). */
function releaseWords(here: RulesHere, faqRelease: string, t: Text): string {
  if (here.basis.kind === 'unknown') return t.assumedRelease({ release: faqRelease });
  return here.installed === null || here.basis.kind === 'installed' ? t.installedRelease({ release: faqRelease }) : t.judgedRelease({ installed: here.installed, release: faqRelease });
}

function evidenceOf(judged: Judged): Record<string, unknown> {
  return {
    hardware: judged.hardware,
    names: judged.identity.names,
    by: judged.identity.by,
    installed: judged.here.installed,
    judgedAs: judged.faq.release,
    status: judged.row?.status ?? null,
    source: judged.row ? describeSource(judged.row.source) : null,
    supported: judged.faq.rows.filter((r) => r.status !== 'unsupported').map((r) => ({ family: r.family, status: r.status })),
  };
}

/** Whether any release of knowledge/hardware.json lists the family as supported or experimental. */
function everSupported(hardware: NpuHardware): boolean {
  return hardwareTable.rows().some((r) => r.family === hardware && r.status !== 'unsupported');
}

/** The first-generation 910, the 310B (and the Ascend 310): not in the release's supported list, and stopped at start by the SoC guard. */
function unsupported(ctx: CheckContext, judged: Judged, guard: RuleHere | null): Outcome {
  const t = ctx.text.checks['npu.supported'];
  const words = (w: Text, text: typeof ctx.text) => ({
    hardware: w.hardwareName({ hardware: judged.hardware, names: judged.identity.names.join(', ') }),
    release: releaseWords(judged.here, judged.faq.release, w),
    statement: judged.row ? w.faqSays({ quote: judged.row.source.quote ?? '', source: describeSource(judged.row.source) }) : w.notInFaq,
    supported: supportedList(judged.faq.rows, w),
    guard: guard?.level ? w.guard({ tag: guard.tag(text) }) : '',
  });
  const evidence = { ...evidenceOf(judged), ...(guard?.level ? { guard: guard.evidence } : {}) };
  return fail(t.unsupported(words(t, ctx.text)), {
    expected: `an NPU family vllm-ascend ${judged.faq.release} supports: ${supportedList(judged.faq.rows, en.checks['npu.supported'])}`,
    actual: en.checks['npu.supported'].unsupported(words(en.checks['npu.supported'], en)),
    remediation: t.unsupportedFix({ supported: supportedList(judged.faq.rows, t), never: !everSupported(judged.hardware) }),
    evidence,
  });
}

interface Build {
  deviceType: string;
  family: NpuHardware;
  path: string;
}

/** vllm_ascend/_build_info.py of the installed vllm-ascend, when it names a device type vllm-ascend knows. */
async function buildOf(ctx: CheckContext): Promise<Build | null> {
  const build = (await installedStack(ctx)).vllmAscendBuild;
  const family = build?.deviceType ? BUILD_DEVICE_TYPES[build.deviceType] : undefined;
  return build?.deviceType && family ? { deviceType: build.deviceType, family, path: build.path } : null;
}

/** The installed vllm-ascend refuses an NPU of another device type than it was built for (vllm-ascend.build-device-type). */
function buildMismatch(ctx: CheckContext, judged: Judged, build: Build | null): Outcome | undefined {
  if (!build || build.family === judged.hardware) return undefined;
  const rule = judged.here.judge('vllm-ascend.build-device-type');
  if (rule.level === null) return undefined;
  const t = ctx.text.checks['npu.supported'];
  const details = {
    expected: `vllm-ascend built for ${judged.hardware}`,
    actual: `__device_type__ = '${build.deviceType}' in ${build.path}`,
    remediation: t.buildFix({ hardware: judged.hardware }),
    evidence: { ...evidenceOf(judged), build: { deviceType: build.deviceType, path: build.path }, ...rule.evidence },
  };
  const message = t.buildMismatch({ deviceType: build.family, path: build.path, hardware: judged.hardware, tag: rule.tag(ctx.text) });
  return rule.level === 'fail' ? fail(message, details) : warn(message, details);
}

async function judge(ctx: CheckContext, identity: HardwareIdentity & { hardware: NpuHardware }): Promise<Outcome> {
  const t = ctx.text.checks['npu.supported'];
  const here = await rulesHere(ctx);
  const faq = hardwareOf(here.basis.release);
  const judged: Judged = { identity, hardware: identity.hardware, faq, row: faq.rows.find((r) => r.family === identity.hardware), here };
  const guarded = identity.hardware === '910' || identity.hardware === '310B' || identity.hardware === '310';
  if (judged.row?.status === 'unsupported' || identity.hardware === '310') return unsupported(ctx, judged, guarded ? here.judge('soc.runtime-guard') : null);

  const build = await buildOf(ctx);
  const mismatch = buildMismatch(ctx, judged, build);
  if (mismatch) return mismatch;

  const release = releaseWords(here, faq.release, t);
  const evidence = { ...evidenceOf(judged), ...(build ? { build: { deviceType: build.deviceType, path: build.path } } : {}) };
  if (!judged.row) {
    return warn(t.notListed({ hardware: identity.hardware, release, supported: supportedList(faq.rows, t) }), {
      remediation: t.notListedFix({ hardware: identity.hardware }),
      evidence,
    });
  }
  const built = build ? t.builtFor({ deviceType: build.family }) : '';
  const message = judged.row.status === 'experimental' ? t.experimental({ hardware: identity.hardware, release, built }) : t.supported({ hardware: identity.hardware, release, built });
  return pass(message, { evidence });
}

// title, why, reads, fix and every message: src/i18n/*/checks/knowledge.ts
export default defineCheck({
  id: 'npu.supported',
  category: 'npu',
  order: 95,
  depth: 'quick',
  level: 'required',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.supported'];
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
    const identity = hardwareOfTable(inventory.table);
    const { hardware } = identity;
    if (hardware === null) return skip(t.unknownLayout({ layout: inventory.layout }), { remediation: t.unknownLayoutFix, evidence: { by: identity.by } });
    return judge(ctx, { ...identity, hardware });
  },
});

import { fail, pass, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { launchView } from '../src/probes/launch.js';
import { npuInventory } from '../src/probes/npu.js';
import { installedDistributions, pythonSite } from '../src/probes/python.js';
import { summarizeList } from '../src/util/text.js';

const UNWANTED = ['triton-ascend', 'triton'];

export default defineCheck({
  id: 'python.triton-ascend',
  title: 'No triton / triton-ascend on a 310P',
  category: 'launch',
  level: 'required',
  why:
    'The Atlas 300I Duo / 200I Pro guide has triton-ascend and triton uninstalled (pip uninstall -y triton-ascend ' +
    'triton) to avoid dependency conflicts: the 310P is not a Triton target, and the packages come with a source ' +
    'install of vllm-ascend, so a 310P host set up from source carries them.',
  reads: ['the vllm (or python3) the launch script runs, on PATH', 'its #! line', 'site-packages/*.dist-info', 'npu-smi info (the NPU family)'],
  fix: 'Uninstall them with the Python that runs vllm: python3 -m pip uninstall -y triton-ascend triton.',
  async run(ctx) {
    const inventory = await npuInventory(ctx);
    const detected = inventory.ok ? inventory.family : 'unknown';
    const family = detected !== 'unknown' ? detected : ctx.profile.npu.family;
    if (family !== '310p') {
      const seen = detected !== 'unknown' ? `npu-smi shows ${detected}` : inventory.ok ? 'npu-smi does not tell the family' : `npu-smi: ${inventory.problem.message}`;
      return skip(`only a 310P must be without triton, and this is not one (${seen}; profile npu.family ${ctx.profile.npu.family})`, {
        remediation: 'nothing to do on this family; on a 310P that npu-smi cannot identify, set npu.family: 310p in the profile',
        evidence: { family },
      });
    }
    const view = await launchView(ctx);
    const site = await pythonSite(ctx, view);
    const evidence: Record<string, unknown> = { family, python: site.python, via: site.via, sitePackages: site.sitePackages };
    if (!site.python) {
      return skip(`no vllm or python3 found here to look into (searched ${summarizeList(site.searched, 3)}); run qprep inside the serving container`, {
        remediation: 'docker exec -it <container> qprep check --only python.triton-ascend',
        evidence,
      });
    }
    if (site.sitePackages.length === 0) {
      return skip(`no site-packages directory found for ${site.python}; run qprep where vllm is installed`, {
        remediation: 'docker exec -it <container> qprep check --only python.triton-ascend',
        evidence: { ...evidence, searched: site.searched },
      });
    }
    const found = await installedDistributions(ctx, site.sitePackages, UNWANTED);
    evidence.found = found;
    if (found.length === 0) return pass(`no triton or triton-ascend for ${site.python} (${site.via}) in ${summarizeList(site.sitePackages, 2)}`, { evidence });
    const names = [...new Set(found.map((d) => d.name))];
    return fail(`${summarizeList(found.map((d) => `${d.name} ${d.version}`), 3)} installed for ${site.python} on a 310P host; the 310P guide has them uninstalled`, {
      expected: 'neither triton nor triton-ascend',
      actual: found.map((d) => d.path).join(', '),
      remediation: `${site.python} -m pip uninstall -y ${names.join(' ')}`,
      evidence,
    });
  },
});

import { describe, expect, it } from 'vitest';
import check from '../../../checks/python.triton-ascend.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, guideScript } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const PY = '/usr/local/python3.11.13';
const SITE = `${PY}/lib/python3.11/site-packages`;

/** A 300I Duo with the vllm-ascend image's Python: vllm on PATH, its #! naming the interpreter. */
function duo(files: Record<string, FakeNode> = {}, env: Record<string, string> = {}): FakeHostSpec {
  const exe = (content: string): FakeNode => ({ kind: 'file', content, mode: 0o755 });
  return npuHost({
    info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'),
    env: { PATH: `${PY}/bin:/usr/local/bin:/usr/bin:/bin`, HOME: '/root', ...env },
    files: {
      [`${PY}/bin/vllm`]: exe(`#!${PY}/bin/python3.11\nimport sys\n`),
      [`${PY}/bin/python3.11`]: exe('ELF'),
      [`${SITE}/vllm-0.23.0.dist-info/METADATA`]: 'Name: vllm\n',
      [`${SITE}/vllm_ascend-0.23.0.dist-info/METADATA`]: 'Name: vllm-ascend\n',
      ...files,
    },
  });
}

/*
 * python.triton-ascend has no "error" outcome: it only reads directories, and where there is
 * no Python to look into (qprep run on the host, vllm in the container) it skips and says where
 * to run it.
 */
describe('python.triton-ascend', () => {
  it('skips on an A3: only the 310P must be without triton', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('run_p.sh') });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toBe('only a 310P must be without triton, and this is not one (npu-smi shows a3; profile npu.family any)');
  });

  it('fails on a 300I Duo whose vllm Python has triton-ascend and triton installed, with the uninstall command for that Python', async () => {
    const files = { [`${SITE}/triton_ascend-3.2.0.dist-info/METADATA`]: 'x', [`${SITE}/triton-3.2.0.dist-info/METADATA`]: 'x' };
    const { outcome, result } = await runOn(check, duo(files), {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe(`triton 3.2.0, triton-ascend 3.2.0 installed for ${PY}/bin/python3.11 on a 310P host; the 310P guide has them uninstalled`);
    expect(outcome.remediation).toBe(`${PY}/bin/python3.11 -m pip uninstall -y triton triton-ascend`);
  });

  it('passes when they are uninstalled, naming where it looked', async () => {
    const { outcome } = await runOn(check, duo(), {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe(`no triton or triton-ascend for ${PY}/bin/python3.11 (the #! line of ${PY}/bin/vllm) in ${SITE}`);
  });

  it('needs no launch script: it looks at the vllm on PATH', async () => {
    const files = { [`${SITE}/triton_ascend-3.2.0.dist-info/RECORD`]: 'x' };
    const { outcome } = await runOn(check, duo(files));
    expect(outcome.status).toBe('fail');
  });

  it('follows the executable the script names, and a #!/usr/bin/env python3 line', async () => {
    const files: Record<string, FakeNode> = {
      '/opt/venv/bin/vllm': { kind: 'file', content: '#!/usr/bin/env python3\n', mode: 0o755 },
      '/opt/venv/bin/python3': { kind: 'file', content: 'ELF', mode: 0o755 },
      '/opt/venv/lib/python3.10/site-packages/triton-3.1.0.dist-info/METADATA': 'x',
    };
    const script = edited(guideScript('qwen3.5-2b-310p.sh'), [['vllm serve $MODEL_PATH', 'export PATH=/opt/venv/bin:$PATH\n/opt/venv/bin/vllm serve $MODEL_PATH']]);
    const { outcome } = await runOn(check, duo(files), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toBe('/opt/venv/bin/python3 -m pip uninstall -y triton');
  });

  it('skips where no vllm and no python3 can be found, saying where to run it', async () => {
    const host = npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), env: { PATH: '/usr/bin:/bin' } });
    const { outcome } = await runOn(check, host, {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });

  it('uses the profile\'s family when npu-smi cannot tell', async () => {
    const spec = duo({ [`${SITE}/triton-3.2.0.dist-info/METADATA`]: 'x' });
    const withoutNpuSmi: FakeHostSpec = { ...spec, commands: [] };
    delete withoutNpuSmi.files!['/usr/local/bin/npu-smi'];
    const { outcome } = await runOn(check, withoutNpuSmi, { npu: { family: '310p' } });
    expect(outcome.status).toBe('fail');
    const any = await runOn(check, withoutNpuSmi);
    expect(any.outcome.status).toBe('skip');
  });
});

describe('python.triton-ascend in Chinese', () => {
  it('skips on an A3 in Chinese', async () => {
    const { zh } = await runInBoth(check, a3Node(), {}, { launch: guideScript('run_p.sh') });
    expect(zh.result.title).toBe('310P 上不装 triton / triton-ascend');
    expect(zh.outcome.message).toBe('只有 310P 要求不装 triton，而这台主机不是 310P（npu-smi 显示为 a3；profile npu.family 为 any）');
  });

  it('fails in Chinese with the uninstall command byte for byte; passes saying how the Python was found', async () => {
    const files = { [`${SITE}/triton_ascend-3.2.0.dist-info/METADATA`]: 'x', [`${SITE}/triton-3.2.0.dist-info/METADATA`]: 'x' };
    const failed = await runInBoth(check, duo(files), {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(failed.zh.outcome.message).toBe(`310P 主机上为 ${PY}/bin/python3.11 安装了 triton 3.2.0；triton-ascend 3.2.0；310P 部署指南要求卸载它们`);
    expect(failed.zh.outcome.remediation).toBe(`${PY}/bin/python3.11 -m pip uninstall -y triton triton-ascend`);
    const clean = await runInBoth(check, duo(), {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(clean.zh.outcome.message).toBe(`${PY}/bin/python3.11（${PY}/bin/vllm 的 #! 行）在 ${SITE} 中没有 triton 或 triton-ascend`);
    // the evidence keeps the English "via": programs read it
    expect(clean.zh.outcome.evidence?.via).toBe(`the #! line of ${PY}/bin/vllm`);
  });

  it('skips without a Python in Chinese, with the docker exec line unchanged', async () => {
    const host = npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), env: { PATH: '/usr/bin:/bin' } });
    const { en, zh } = await runInBoth(check, host, {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(zh.outcome.message).toMatch(/^此处未找到可检查的 vllm 或 python3（已查找 /);
    expect(zh.outcome.remediation).toBe('docker exec -it <container> qprep check --only python.triton-ascend');
    expectSameCommands(en.outcome, zh.outcome);
  });
});

import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/core/runner.js';
import { textFor } from '../../../src/i18n/index.js';
import { RecordingHost, ReplayHost, snapshotSchema } from '../../../src/host/snapshot.js';
import { rulesHere } from '../../../src/probes/rules.js';
import { installedStack } from '../../../src/probes/stack.js';
import { FakeHost, type FakeHostSpec, type FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { profileWith } from '../../helpers/run-check.js';

const PY = '/usr/local/python3.11.13';
const SITE = `${PY}/lib/python3.11/site-packages`;
const exe = (content: string): FakeNode => ({ kind: 'file', content, mode: 0o755 });

/** Core metadata as pip writes it (packaging.python.org, "Core metadata specifications"): the header, a blank line, the description. */
function metadata(name: string, version: string): string {
  return `Metadata-Version: 2.4\nName: ${name}\nVersion: ${version}\nSummary: s\nRequires-Python: >=3.10\n\nVersion: 9.9.9 is description text, not a header\n`;
}

/**
 * The layout of the official vllm-ascend image (its Dockerfile): vllm and vllm-ascend installed
 * editable from /vllm-workspace (pip install -e writes direct_url.json, PEP 610), torch and
 * torch_npu as wheels, CANN under /usr/local/Ascend, SOC_VERSION in the environment.
 */
function imageHost(extra: Record<string, FakeNode> = {}, env: Record<string, string> = {}): FakeHostSpec {
  return {
    env: { PATH: `${PY}/bin:/usr/local/bin:/usr/bin:/bin`, HOME: '/root', SOC_VERSION: 'ascend910b1', ...env },
    identity: { arch: 'aarch64' },
    files: {
      [`${PY}/bin/vllm`]: exe(`#!${PY}/bin/python3.11\n`),
      [`${PY}/bin/python3.11`]: exe('ELF'),
      [`${SITE}/vllm-0.11.0+empty.dist-info/METADATA`]: metadata('vllm', '0.11.0+empty'),
      [`${SITE}/vllm-0.11.0+empty.dist-info/direct_url.json`]: '{"dir_info": {"editable": true}, "url": "file:///vllm-workspace/vllm"}',
      [`${SITE}/vllm_ascend-0.11.0rc1.dist-info/METADATA`]: metadata('vllm_ascend', '0.11.0rc1'),
      [`${SITE}/vllm_ascend-0.11.0rc1.dist-info/direct_url.json`]: '{"dir_info": {"editable": true}, "url": "file:///vllm-workspace/vllm-ascend"}',
      '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py': "# Auto-generated file\n__device_type__ = 'A2'\n",
      [`${SITE}/torch-2.7.1+cpu.dist-info/METADATA`]: metadata('torch', '2.7.1+cpu'),
      [`${SITE}/torch_npu-2.7.1.dist-info/METADATA`]: metadata('torch_npu', '2.7.1'),
      [`${SITE}/transformers-4.57.1.dist-info/METADATA`]: metadata('transformers', '4.57.1'),
      '/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info': ascendFixture('cann-toolkit-install-info-8.3.RC1.alpha001-tritonjit-notes.txt'),
      '/usr/local/Ascend/ascend-toolkit/latest/opp_kernel/version.info': ascendFixture('cann-opp-kernel-version-info-8.3.RC1.alpha001-tritonjit-notes.txt'),
      '/usr/local/Ascend/nnal/atb/latest/version.info': ascendFixture('nnal-atb-version-info-8.2.RC1-mindie-notes.txt'),
      '/usr/local/Ascend/nnal/atb/set_env.sh': '#!/bin/bash\n',
      '/usr/local/Ascend/driver/version.info': ascendFixture('driver-version-info-25.0.rc1.1-mindie-notes.txt'),
      '/usr/local/Ascend/firmware/version.info': ascendFixture('firmware-version-info-7.7.0.1.231-mindie-notes.txt'),
      ...extra,
    },
  };
}

function contextOf(spec: FakeHostSpec, lang: 'en' | 'zh' = 'en') {
  return createContext({ host: new FakeHost(spec), profile: profileWith(), timeoutMs: 1000, lang });
}

describe('installedStack', () => {
  it('reads every part of the official image layout from files: METADATA, direct_url.json, _build_info.py, the CANN version files, SOC_VERSION', async () => {
    const stack = await installedStack(contextOf(imageHost()));
    expect(stack.python.path).toBe(`${PY}/bin/python3.11`);
    expect(stack.packages.vllmAscend).toEqual({ version: '0.11.0rc1', path: `${SITE}/vllm_ascend-0.11.0rc1.dist-info`, versionFrom: 'METADATA', editable: '/vllm-workspace/vllm-ascend' });
    expect(stack.packages.vllm).toMatchObject({ version: '0.11.0+empty', editable: '/vllm-workspace/vllm' });
    expect(stack.packages.torch?.version).toBe('2.7.1+cpu');
    expect(stack.packages.torchNpu?.version).toBe('2.7.1');
    expect(stack.packages.transformers?.version).toBe('4.57.1');
    expect(stack.packages.tritonAscend).toBeNull();
    expect(stack.vllmAscendBuild).toEqual({ deviceType: 'A2', path: '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py' });
    expect(stack.cann.toolkit).toMatchObject({ version: '8.3.RC1.alpha001', arch: 'aarch64' });
    expect(stack.cann.kernels).toEqual({ version: '8.3.RC1.alpha001', build: '8.3.T5.0.B028', path: '/usr/local/Ascend/ascend-toolkit/latest/opp_kernel/version.info' });
    expect(stack.cann.atb).toEqual({ version: '8.2.RC1', build: '8.2.RC1.B150', path: '/usr/local/Ascend/nnal/atb/latest/version.info', setEnv: '/usr/local/Ascend/nnal/atb/set_env.sh' });
    expect(stack.driver?.version).toBe('25.0.rc1.1');
    expect(stack.firmware?.version).toBe('7.7.0.1.231');
    expect(stack.image).toEqual({ socVersion: 'ascend910b1' });
  });

  it('takes the version a directory name gives when METADATA is not readable, and follows ATB_HOME_PATH two levels up', async () => {
    const spec = imageHost({ [`${SITE}/vllm_ascend-0.11.0rc1.dist-info/METADATA`]: { error: 'EACCES' }, '/opt/nnal/atb/8.2/version.info': ascendFixture('nnal-atb-version-info-8.2.RC1-mindie-notes.txt') }, { ATB_HOME_PATH: '/opt/nnal/atb/8.2/atb/cxx_abi_1' });
    const stack = await installedStack(contextOf(spec));
    expect(stack.packages.vllmAscend).toMatchObject({ version: '0.11.0rc1', versionFrom: 'directory name' });
    expect(stack.cann.atb?.path).toBe('/opt/nnal/atb/8.2/version.info');
  });

  it('finds a setuptools develop install through its .egg-link and the PKG-INFO of the source tree', async () => {
    const spec = imageHost({
      [`${SITE}/vllm_ascend-0.11.0rc1.dist-info/METADATA`]: { error: 'ENOENT' },
      [`${SITE}/vllm_ascend-0.11.0rc1.dist-info/direct_url.json`]: { error: 'ENOENT' },
    });
    delete spec.files![`${SITE}/vllm_ascend-0.11.0rc1.dist-info/METADATA`];
    delete spec.files![`${SITE}/vllm_ascend-0.11.0rc1.dist-info/direct_url.json`];
    spec.files![`${SITE}/vllm-ascend.egg-link`] = '/opt/src/vllm-ascend\n.\n';
    spec.files!['/opt/src/vllm-ascend/vllm_ascend.egg-info/PKG-INFO'] = metadata('vllm_ascend', '0.9.1');
    const stack = await installedStack(contextOf(spec));
    expect(stack.packages.vllmAscend).toMatchObject({ version: '0.9.1', versionFrom: 'PKG-INFO', editable: '/opt/src/vllm-ascend' });
  });

  it('says nothing it did not read: no Python, no CANN, no image variable', async () => {
    const stack = await installedStack(contextOf({ env: { PATH: '/usr/bin:/bin' }, files: {} }));
    expect(stack.python.path).toBeNull();
    expect(Object.values(stack.packages).every((p) => p === null)).toBe(true);
    expect(stack.vllmAscendBuild).toBeNull();
    expect(stack.cann).toEqual({ toolkit: null, kernels: null, atb: null });
    expect(stack.image.socVersion).toBeNull();
  });
});

describe('the stack in a snapshot', () => {
  it('a snapshot records every file the stack reads and its replay reads the same stack, byte for byte', async () => {
    const recorder = new RecordingHost(new FakeHost(imageHost()));
    const live = await installedStack(createContext({ host: recorder, profile: profileWith(), timeoutMs: 1000 }));
    const snapshot = snapshotSchema.parse(JSON.parse(JSON.stringify(await recorder.toSnapshot({ name: 'qprep', version: 'test' }))));
    expect(Object.keys(snapshot.files)).toEqual(
      expect.arrayContaining([
        `${SITE}/vllm_ascend-0.11.0rc1.dist-info/METADATA`,
        `${SITE}/vllm_ascend-0.11.0rc1.dist-info/direct_url.json`,
        '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py',
        '/usr/local/Ascend/ascend-toolkit/latest/opp_kernel/version.info',
        '/usr/local/Ascend/nnal/atb/latest/version.info',
      ]),
    );
    const replayed = await installedStack(createContext({ host: new ReplayHost(snapshot, 'test.json'), profile: profileWith(), timeoutMs: 1000 }));
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(live));
  });
});

describe('rulesHere', () => {
  it('judges a rule for the installed release and says so; its evidence names the rule and its source', async () => {
    const here = await rulesHere(contextOf(imageHost()));
    expect(here.basis).toEqual({ kind: 'installed', installed: '0.11.0rc1', release: 'v0.11.0rc1' });
    const torchair = here.judge('torchair.model-list');
    expect(torchair.level).toBe('fail');
    expect(torchair.tag(textFor('en'))).toBe('rule torchair.model-list, vllm-ascend v0.11.0rc1');
    expect(torchair.evidence).toMatchObject({ rule: 'torchair.model-list', source: 'vllm-project/vllm-ascend vllm_ascend/ascend_config.py:20 @ v0.11.0', judgedAs: 'v0.11.0rc1', installed: '0.11.0rc1', assumption: null });
    // outside its range a rule says nothing, or what its `outside` says
    expect(here.judge('qwen35.prefix-caching-align').level).toBeNull();
    expect(here.judge('glm5.mtp-enforce-eager').level).toBe('warn');
  });

  it('judges a source build as the newest release at or below it', async () => {
    const spec = imageHost({ [`${SITE}/vllm_ascend-0.11.0rc1.dist-info/METADATA`]: metadata('vllm_ascend', '0.16.0rc2.dev902+gf355e4673') });
    const here = await rulesHere(contextOf(spec));
    expect(here.basis).toMatchObject({ kind: 'between', release: 'v0.16.0rc1' });
    expect(here.judge('310p.npugraph-ex').tag(textFor('en'))).toBe('rule 310p.npugraph-ex, vllm-ascend 0.16.0rc2.dev902+gf355e4673 judged as v0.16.0rc1');
  });

  it('with no version found, says which assumption it made, in both languages', async () => {
    const here = await rulesHere(contextOf({ env: { PATH: '/usr/bin:/bin' }, files: {} }));
    expect(here.installed).toBeNull();
    const inForce = here.judge('torchair.model-list');
    expect(inForce.level).toBe('fail');
    expect(inForce.tag(textFor('en'))).toBe('rule torchair.model-list; no vllm-ascend version found here, judged as if it applies (it does on v0.9.0rc1 to v0.11.0)');
    expect(inForce.tag(textFor('zh'))).toBe('规则 torchair.model-list；此处未找到 vllm-ascend 版本，按规则适用判断（适用于 v0.9.0rc1 至 v0.11.0）');
    expect(here.judge('w8a8.fp16-a2a3').level).toBe('warn');
    expect(here.judge('glm5.mtp-enforce-eager').tag(textFor('en'))).toMatch(/^rule glm5\.mtp-enforce-eager; no vllm-ascend version found here, judged as at v\d+\.\d+\.\d+\S*, the newest release$/);
  });
});

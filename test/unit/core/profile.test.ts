import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { QprepError } from '../../../src/errors.js';
import { assertProfileCheckIds, closestName } from '../../../src/core/profile-checks.js';
import { builtinProfileNames, expandPorts, loadBuiltinProfile, parseProfileText } from '../../../src/core/profile.js';

function errorOf(fn: () => unknown): QprepError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(QprepError);
    return error as QprepError;
  }
  throw new Error('expected an error');
}

describe('profiles', () => {
  it('has a built-in default with the values of the deployment guides', () => {
    const { profile, source } = loadBuiltinProfile('default');
    expect(source).toBe('builtin');
    expect(profile.name).toBe('default');
    expect(profile.tuning).toEqual({
      cpuGovernor: 'performance',
      swappiness: { target: 0, max: 1 },
      numaBalancing: { target: 0 },
      schedMigrationCostNs: { target: 50000, min: 50000, max: 100000 },
    });
    expect(profile.host.shmMin).toBe(1024 ** 3);
  });

  it('reads YAML over the default, converting sizes', () => {
    const { profile, source } = parseProfileText('name: big\nhost:\n  shmMin: 16g\n  disk:\n    - path: /data\n      minFree: 800GB\n', 'big.yaml');
    expect(source).toBe('big.yaml');
    expect(profile.name).toBe('big');
    expect(profile.host.shmMin).toBe(16 * 1024 ** 3);
    expect(profile.host.disk).toEqual([{ path: '/data', minFree: 800 * 1000 ** 3 }]);
    expect(profile.tuning.cpuGovernor).toBe('performance');
  });

  it('reads JSON too and names the profile after its file', () => {
    const { profile } = parseProfileText('{"tuning": {"swappiness": {"max": 10, "target": 10}}}', '/etc/qprep/lab.json');
    expect(profile.name).toBe('lab');
    expect(profile.tuning.swappiness).toEqual({ target: 10, max: 10 });
  });

  it('names the file, the field path and the problem', () => {
    expect(errorOf(() => parseProfileText('host:\n  shmMin: lots\n', 'p.yaml')).message).toBe(
      'invalid profile p.yaml: host.shmMin: expected a size such as 1GiB, 16g, 500GB or a number of bytes',
    );
    expect(errorOf(() => parseProfileText('tuning:\n  swapiness: 0\n', 'p.yaml')).message).toBe('invalid profile p.yaml: tuning: Unrecognized key: "swapiness"');
    expect(errorOf(() => parseProfileText('waivers:\n  - id: net.proxy\n', 'p.yaml')).message).toMatch(/^invalid profile p\.yaml: waivers\.0\.reason: /);
    expect(errorOf(() => parseProfileText('host: [1, 2', 'p.yaml')).message).toMatch(/^invalid profile p\.yaml: not valid YAML or JSON: /);
    expect(errorOf(() => parseProfileText('- a\n- b\n', 'p.yaml')).message).toBe('invalid profile p.yaml: expected a mapping of profile fields at the top level');
    expect(errorOf(() => parseProfileText('extends: nope\n', 'p.yaml')).message).toMatch(/^invalid profile p\.yaml: extends: unknown profile "nope"/);
    expect(errorOf(() => parseProfileText('host:\n  ports: ["70000-70001"]\n', 'p.yaml')).code).toBe('invalid-profile');
    expect(errorOf(() => parseProfileText('tuning:\n  schedMigrationCostNs: {min: 100, max: 10, target: 50}\n', 'p.yaml')).message).toContain(
      'tuning.schedMigrationCostNs: expected min <= target <= max',
    );
  });

  it('expands port ranges', () => {
    expect(expandPorts([8000, '60000-60002', 8000])).toEqual([8000, 60000, 60001, 60002]);
  });

  it('reads the minimum driver and CANN as quoted Ascend versions, and refuses a YAML number', () => {
    const { profile } = parseProfileText('npu:\n  minDriver: "25.5.0"\n  minCann: 8.5.0\n', 'v.yaml');
    expect(profile.npu).toMatchObject({ minDriver: '25.5.0', minCann: '8.5.0' });
    expect(errorOf(() => parseProfileText('npu:\n  minDriver: 25.10\n', 'v.yaml')).message).toBe(
      'invalid profile v.yaml: npu.minDriver: expected an Ascend version as a quoted string, such as "25.5.0" or "8.3.RC2"',
    );
    expect(errorOf(() => parseProfileText('npu:\n  minDriver: latest\n', 'v.yaml')).message).toBe(
      'invalid profile v.yaml: npu.minDriver: expected an Ascend version such as 25.5.0, 25.0.rc1.1 or 8.3.RC2',
    );
  });

  it('reads the deployment section: nodes, role, expected concurrency', () => {
    const { profile } = parseProfileText('extends: qwen3.5-397b-pd-decode-a3\ndeployment:\n  expectedConcurrency: 600\n', 'd.yaml');
    expect(profile.deployment).toEqual({ nodes: 3, role: 'decode', expectedConcurrency: 600 });
    expect(loadBuiltinProfile('default').profile.deployment).toEqual({ nodes: 1, role: 'any', expectedConcurrency: 0 });
    expect(errorOf(() => parseProfileText('deployment:\n  role: master\n', 'd.yaml')).message).toMatch(/^invalid profile d\.yaml: deployment\.role: /);
  });
});

describe('built-in profiles', () => {
  const deployments = builtinProfileNames().filter((name) => name !== 'default');

  it('each states family, NPU count, minimum driver, ports, shm and disk for the weights', () => {
    for (const name of deployments) {
      const { profile } = loadBuiltinProfile(name);
      expect(profile.npu.family, name).not.toBe('any');
      expect(profile.npu.minCount, name).toBeGreaterThan(0);
      expect(profile.npu.minDriver, name).toMatch(/^25\.5\.\d$/);
      expect(profile.host.ports.length, name).toBeGreaterThan(0);
      expect(profile.host.shmMin, name).toBeGreaterThanOrEqual(1024 ** 3);
      expect(profile.host.disk[0]!.minFree, name).toBeGreaterThan(0);
      expect(profile.description, name).not.toBe('');
    }
  });

  it('the multi-node and PD profiles say how many nodes, make HCCN block and promote hccn.netdetect; PD moves KV over HCCN', () => {
    const nodes = Object.fromEntries(deployments.map((name) => [name, loadBuiltinProfile(name).profile.deployment.nodes]));
    expect(nodes).toEqual({
      'qwen3.5-397b-w8a8-a3': 1,
      'qwen3.5-397b-w8a8-a2': 2,
      'qwen3.5-397b-bf16-a3': 2,
      'qwen3.5-397b-bf16-a2': 4,
      'qwen3.5-397b-pd-prefill-a3': 3,
      'qwen3.5-397b-pd-decode-a3': 3,
      'qwen3.5-dense-300i-duo': 1,
      'qwen3.5-dense-200i-pro': 1,
    });
    for (const name of deployments) {
      const { profile } = loadBuiltinProfile(name);
      expect(profile.levels['hccn.netdetect'], name).toBe(profile.deployment.nodes > 1 ? 'required' : undefined);
      expect(profile.hccn.kvTransfer, name).toBe(name.includes('-pd-'));
    }
    expect(loadBuiltinProfile('qwen3.5-397b-pd-prefill-a3').profile.deployment.role).toBe('prefill');
    expect(loadBuiltinProfile('qwen3.5-397b-pd-decode-a3').profile.deployment.role).toBe('decode');
  });

  it("the PD profiles hold the guide's ports: vLLM, DP RPC, the Mooncake KV ports of every rank, the proxy", () => {
    expect(expandPorts(loadBuiltinProfile('qwen3.5-397b-pd-prefill-a3').profile.host.ports)).toEqual([6884, 8010, ...Array.from({ length: 16 }, (_, i) => 23010 + i), 30060]);
    expect(expandPorts(loadBuiltinProfile('qwen3.5-397b-pd-decode-a3').profile.host.ports)).toEqual([6884, 30050, ...Array.from({ length: 32 }, (_, i) => 36010 + i)]);
  });

  it('start from default like a profile file does: the PD ones keep its environment and change what run_p.sh changes', () => {
    const { env } = loadBuiltinProfile('qwen3.5-397b-pd-prefill-a3').profile;
    expect(env.variables).toMatchObject({ PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True', HCCL_OP_EXPANSION_MODE: 'AIV', HCCL_BUFFSIZE: '1536', VLLM_USE_V1: '1', OMP_NUM_THREADS: null });
    expect(env.unset).toContain('http_proxy');
    expect(loadBuiltinProfile('qwen3.5-dense-300i-duo').profile.env.variables.HCCL_BUFFSIZE).toBe('1024');
  });

  it('every check a built-in profile names is in the catalogue', () => {
    for (const name of builtinProfileNames()) expect(() => assertProfileCheckIds(loadBuiltinProfile(name), catalogue), name).not.toThrow();
  });
});

describe('check ids in a profile file', () => {
  it('an unknown id in levels, waivers or skip is invalid-profile naming the field, with the nearest check', () => {
    const message = (text: string) => errorOf(() => assertProfileCheckIds(parseProfileText(text, 'p.yaml'), catalogue)).message;
    expect(message('waivers:\n  - {id: net.prxy, reason: lab}\n')).toBe('invalid profile p.yaml: waivers.0.id: unknown check "net.prxy" (did you mean "net.proxy"?)');
    expect(message('levels:\n  hccn.netdetct: required\n')).toBe('invalid profile p.yaml: levels.hccn.netdetct: unknown check "hccn.netdetct" (did you mean "hccn.netdetect"?)');
    expect(message('skip: [hccn, gpu.smi]\n')).toBe('invalid profile p.yaml: skip.1: unknown check or category "gpu.smi" (did you mean "npu.smi"?)');
    expect(message('waivers:\n  - {id: zz.totally-else, reason: lab}\n')).toBe('invalid profile p.yaml: waivers.0.id: unknown check "zz.totally-else"; qprep list names every check');
    expect(errorOf(() => assertProfileCheckIds(parseProfileText('skip: [nope]\n', 'p.yaml'), catalogue)).code).toBe('invalid-profile');
  });

  it('accepts ids, categories and prefixes where they select checks', () => {
    expect(() => assertProfileCheckIds(parseProfileText('skip: [hccn, launch.flags, npu]\nlevels: {cpu.governor: required}\n', 'p.yaml'), catalogue)).not.toThrow();
    expect(closestName('launch.flag', ['launch.flags', 'launch.env'])).toBe('launch.flags');
    expect(closestName('x', ['launch.flags'])).toBeUndefined();
  });
});

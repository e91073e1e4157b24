import { describe, expect, it } from 'vitest';
import { QprepError } from '../../../src/core/errors.js';
import { expandPorts, loadBuiltinProfile, parseProfileText } from '../../../src/core/profile.js';

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
});

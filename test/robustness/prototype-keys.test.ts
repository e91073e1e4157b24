import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { qprepWith, tmp } from './support.js';

/*
 * Names every JavaScript object answers to: `extends: __proto__` (or constructor, toString)
 * must not name a built-in profile, and a key named __proto__ anywhere in a profile, a
 * cluster file, a snapshot or a report given to aggregate is refused like any unknown key,
 * with exit 2 and one line naming the file and where the key is. Otherwise the key would
 * become the prototype of the object it is copied into, where no schema looks.
 */

let dir: string;
const put = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  dir = tmp('proto');
});

async function refused(args: string[], line: string): Promise<void> {
  const run = await qprepWith(null, args);
  expect(run.stderr).toBe(`qprep: error: ${line}\n`);
  expect(run.exitCode).toBe(2);
}

describe('profiles', () => {
  it('extends: a name every object inherits is an unknown profile, as any other unknown name', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const file = put(`extends-${name}.yaml`, `extends: ${name}\n`);
      const run = await qprepWith(null, ['list', '--profiles', '--profile', file]);
      expect(run.exitCode, name).toBe(2);
      expect(run.stderr, name).toMatch(new RegExp(`^qprep: error: invalid profile ${file}: extends: unknown profile "${name}"\nqprep: hint: `));
    }
    // the built-ins are still found
    const ok = await qprepWith(null, ['list', '--profiles', '--profile', put('extends-ok.yaml', 'extends: qwen3.5-397b-w8a8-a2\n'), '--format', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
  });

  it('a __proto__ key is refused at the top level, empty or not, in YAML and in JSON, and inside a section', async () => {
    const cases: Array<[string, string, string]> = [
      ['top-empty.yaml', '__proto__: {}\n', '(top level)'],
      ['top.yaml', '__proto__:\n  strict: true\n', '(top level)'],
      ['top.json', '{"__proto__": {"checks": {}}}', '(top level)'],
      ['nested.yaml', 'hccn:\n  __proto__: {concurrency: 1}\n', 'hccn'],
    ];
    for (const [name, text, where] of cases) {
      const file = put(name, text);
      await refused(['check', '--profile', file, '--only', 'host.shm'], `invalid profile ${file}: ${where}: Unrecognized key: "__proto__"`);
    }
  });
});

describe('cluster files, snapshots and aggregate inputs', () => {
  it('a cluster node, and a qprep facts document (read leniently), with a __proto__ key', async () => {
    const example = readFileSync(join(REPO, 'examples', 'cluster', 'a2-pair.yaml'), 'utf8');
    const node = put('node.yaml', example.replace('  - name: a2-node1\n', '  - name: a2-node1\n    __proto__: {host: 10.9.9.9}\n'));
    await refused(['check', '--cluster', node, '--only', 'host.shm'], `invalid cluster ${node}: nodes.0: Unrecognized key: "__proto__"`);
    const facts = put('facts.json', '[{"hostname": "n1", "hostAddresses": [], "__proto__": {"superPod": 3}}, {"hostname": "n2"}]');
    await refused(['check', '--cluster', facts, '--only', 'host.shm'], `invalid cluster ${facts}: 0: Unrecognized key: "__proto__"`);
  });

  it('a snapshot with a __proto__ key in one of its records', async () => {
    const snapshot = JSON.parse(readFileSync(join(REPO, 'examples', 'snapshots', 'a2-healthy.json'), 'utf8')) as { files: Record<string, unknown> };
    const text = JSON.stringify(snapshot).replace('"files":{', '"files":{"__proto__":{"/etc/hccn.conf":{"ok":true,"value":"address_0=1.2.3.4\\n"}},');
    const file = put('snapshot.json', text);
    await refused(['check', '--snapshot', file, '--only', 'hccn.conf'], `invalid snapshot ${file}: files: Unrecognized key: "__proto__"`);
  });

  it('a report given to aggregate with a __proto__ key', async () => {
    const good = put('good.json', (await qprepWith(null, ['check', '--snapshot', join(REPO, 'examples', 'snapshots', 'a2-healthy.json'), '--only', 'host.shm', '--format', 'json'])).stdout);
    const report = JSON.parse(readFileSync(good, 'utf8')) as Record<string, unknown>;
    const bad = put('bad.json', JSON.stringify(report).replace('"host":{', '"host":{"__proto__":{"inContainer":true},'));
    const run = await qprepWith(null, ['aggregate', bad]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`${bad}: host: Unrecognized key: "__proto__"`);
  });
});

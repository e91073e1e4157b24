import { describe, expect, it } from 'vitest';
import { RunScopedHost } from '../../../src/host/run-scoped.js';
import { LiveHost } from '../../../src/host/live.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('the host of one serve run', () => {
  it('refuses every write, also on a live host, and leaves the file alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-run-scoped-'));
    writeFileSync(join(root, 'swappiness'), '60\n');
    const host = new RunScopedHost(new LiveHost({ root, timeoutMs: 5000 }));
    expect(await host.writeFile('/swappiness', '0\n', { how: 'existing' })).toEqual({ ok: false, code: 'EREADONLY', message: 'qprep serve is read-only: not writing /swappiness' });
    expect((await host.removeFile('/swappiness')).ok).toBe(false);
    expect((await host.rename('/swappiness', '/x')).ok).toBe(false);
    expect((await host.makeDirectory('/d', 0o755)).ok).toBe(false);
    expect(readFileSync(join(root, 'swappiness'), 'utf8')).toBe('60\n');
    expect(await host.readFile('/swappiness')).toEqual({ ok: true, value: '60\n' });
  });

  it('after end() starts no command, saying why; reads still answer', async () => {
    const host = new RunScopedHost(new FakeHost({ commands: [{ argv: ['npu-smi', 'info'], stdout: 'table\n' }], files: { '/etc/hostname': 'node1\n' } }));
    expect((await host.run(['npu-smi', 'info'])).stdout).toBe('table\n');
    host.end('the run exceeded its budget of 2s');
    expect(host.ended).toBe(true);
    const refused = await host.run(['npu-smi', 'info']);
    expect(refused.failure).toBe('not started: the run exceeded its budget of 2s');
    expect(refused.exitCode).toBeNull();
    expect((await host.readFile('/etc/hostname')).ok).toBe(true);
  });

  it('end() kills a running command with its process group', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'qprep-run-scoped-')), 'started');
    const host = new RunScopedHost(new LiveHost({ root: '/', timeoutMs: 60_000 }));
    const running = host.run(['/bin/sh', '-c', `: > '${marker}'; sleep 600 & wait`]);
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 20));
    host.end('the run is over');
    const result = await running;
    expect(result.signal).toBe('SIGKILL');
    expect(result.timedOut).toBe(false);
  });
});

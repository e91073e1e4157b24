import { describe, expect, it } from 'vitest';
import { MemoryHost } from '../../../src/host/memory.js';

const host = new MemoryHost({
  identity: { hostname: 'demo', arch: 'aarch64', kernel: '5.10' },
  env: { PATH: '/usr/bin:/usr/local/bin' },
  files: {
    '/usr/local/Ascend/ascend-toolkit/latest': { kind: 'symlink', target: '/usr/local/Ascend/ascend-toolkit/8.3.RC2' },
    '/usr/local/Ascend/ascend-toolkit/8.3.RC2/aarch64-linux/ascend_toolkit_install.info': 'version=8.3.RC2\n',
    '/usr/local/bin/npu-smi': { kind: 'file', content: '', mode: 0o755 },
    '/usr/local/bin/notes': 'not executable',
    '/dev/davinci0': { kind: 'char-device' },
    '/etc/relative': { kind: 'symlink', target: 'hostname' },
    '/etc/hostname': 'demo\n',
  },
  commands: [{ argv: ['/usr/local/bin/npu-smi', 'info'], stdout: 'table\n' }],
});

describe('MemoryHost (the host the demo snapshots are recorded on)', () => {
  it('follows symlinks in the middle of a path and relative ones', async () => {
    expect(await host.readFile('/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info')).toEqual({ ok: true, value: 'version=8.3.RC2\n' });
    expect(await host.readFile('/etc/relative')).toEqual({ ok: true, value: 'demo\n' });
    expect(await host.lstat('/usr/local/Ascend/ascend-toolkit/latest')).toMatchObject({ ok: true, value: { kind: 'symlink' } });
    expect(await host.readLink('/usr/local/Ascend/ascend-toolkit/latest')).toEqual({ ok: true, value: '/usr/local/Ascend/ascend-toolkit/8.3.RC2' });
  });

  it('implies directories, lists them sorted, and says ENOENT for anything not described', async () => {
    expect(await host.readDir('/dev')).toEqual({ ok: true, value: [{ name: 'davinci0', kind: 'char-device' }] });
    expect(await host.stat('/usr/local/Ascend')).toMatchObject({ ok: true, value: { kind: 'directory' } });
    expect(await host.stat('/nope')).toMatchObject({ ok: false, code: 'ENOENT' });
    expect(await host.readFile('/usr/local')).toMatchObject({ ok: false, code: 'EISDIR' });
    expect(await host.statfs('/dev/shm')).toMatchObject({ ok: false, code: 'ENOENT' });
  });

  it('finds executables like the shell and answers only the commands it describes', async () => {
    expect(await host.which('npu-smi')).toEqual({ path: '/usr/local/bin/npu-smi', searched: ['/usr/bin/npu-smi', '/usr/local/bin/npu-smi'] });
    expect((await host.which('notes')).path).toBeNull();
    expect(await host.run(['/usr/local/bin/npu-smi', 'info'])).toMatchObject({ exitCode: 0, stdout: 'table\n', notFound: false });
    expect(await host.run(['/usr/local/bin/npu-smi', 'info', '-m'])).toMatchObject({ exitCode: null, notFound: true });
  });
});

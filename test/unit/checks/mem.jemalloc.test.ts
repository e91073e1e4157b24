import { describe, expect, it } from 'vitest';
import check from '../../../checks/mem.jemalloc.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const DEBIAN = 'ID=debian\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n';
const OPENEULER = 'NAME="openEuler"\nID="openEuler"\nVERSION_ID="22.03"\n';
const LDCONFIG_ARGV = ['/sbin/ldconfig', '-p'];

describe('mem.jemalloc', () => {
  it('finds the Debian multiarch path for this architecture', async () => {
    const { outcome } = await runOn(check, {
      identity: { arch: 'aarch64' },
      files: { '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF', '/etc/os-release': DEBIAN },
    });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('/usr/lib/aarch64-linux-gnu/libjemalloc.so.2');
    expect(outcome.message).toContain('export LD_PRELOAD=/usr/lib/aarch64-linux-gnu/libjemalloc.so.2:$LD_PRELOAD');
  });

  it('finds openEuler /usr/lib64 and notes when it is already preloaded', async () => {
    const { outcome } = await runOn(check, {
      identity: { arch: 'aarch64' },
      env: { LD_PRELOAD: '/usr/lib64/libjemalloc.so.2', PATH: '/usr/bin' },
      files: { '/usr/lib64/libjemalloc.so.2': 'ELF', '/etc/os-release': OPENEULER },
    });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('preloaded');
  });

  it('falls back to the ldconfig cache and ignores other architectures there', async () => {
    const { outcome, host } = await runOn(check, {
      env: { PATH: '/usr/bin' },
      files: { '/sbin/ldconfig': { kind: 'file', content: '', mode: 0o755 }, '/etc/os-release': DEBIAN },
      commands: [
        {
          argv: LDCONFIG_ARGV,
          stdout: '2 libs found in cache `/etc/ld.so.cache\'\n\tlibjemalloc.so.2 (libc6,AArch64) => /opt/arm/libjemalloc.so.2\n\tlibjemalloc.so.2 (libc6,x86-64) => /opt/jemalloc/lib/libjemalloc.so.2\n',
        },
      ],
    });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('/opt/jemalloc/lib/libjemalloc.so.2');
    expect(host.calls).toEqual([LDCONFIG_ARGV]);
  });

  it('fails with the apt command on Debian when jemalloc is missing', async () => {
    const { outcome, result } = await runOn(check, { env: { PATH: '/usr/bin' }, files: { '/etc/os-release': DEBIAN } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('libjemalloc.so.2 is not installed for x86_64');
    // one command per line, with the path the package installs
    expect(outcome.remediation).toBe('sudo apt install libjemalloc2\nexport LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2:$LD_PRELOAD   # in the launch script (qprep env prints it)');
    expect(result.status).toBe('warn');
  });

  it('fails with the yum command on openEuler', async () => {
    const { outcome } = await runOn(check, { env: { PATH: '/usr/bin' }, files: { '/etc/os-release': OPENEULER } });
    expect(outcome.remediation).toContain('sudo yum install jemalloc');
  });

  it('fails when LD_PRELOAD names a path of another architecture', async () => {
    const { outcome } = await runOn(check, {
      env: { LD_PRELOAD: '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2:', PATH: '/usr/bin' },
      files: { '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2': 'ELF', '/etc/os-release': DEBIAN },
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('LD_PRELOAD names /usr/lib/aarch64-linux-gnu/libjemalloc.so.2, which does not exist on this x86_64 host');
    expect(outcome.remediation).toContain('export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2');
    expectRemediation(outcome);
  });

  it('is an error naming the command when ldconfig hangs', async () => {
    const { outcome } = await runOn(check, {
      env: { PATH: '/usr/bin' },
      files: { '/sbin/ldconfig': { kind: 'file', content: '', mode: 0o755 } },
      commands: [{ argv: LDCONFIG_ARGV, timedOut: true }],
    });
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('"/sbin/ldconfig -p" did not finish within 1000 ms');
    expectRemediation(outcome);
  });
});

describe('mem.jemalloc in Chinese', () => {
  it('passes in Chinese, with the export line intact', async () => {
    const { zh } = await runInBoth(check, { identity: { arch: 'aarch64' }, files: { '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF', '/etc/os-release': DEBIAN } });
    expect(zh.result.title).toBe('用于 LD_PRELOAD 的 jemalloc');
    expect(zh.outcome.message).toBe(
      '在 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 找到 libjemalloc.so.2；用 export LD_PRELOAD=/usr/lib/aarch64-linux-gnu/libjemalloc.so.2:$LD_PRELOAD 预加载它',
    );
  });

  it('fails when missing, with the install and export commands byte for byte', async () => {
    const { en, zh } = await runInBoth(check, { env: { PATH: '/usr/bin' }, files: { '/etc/os-release': DEBIAN } });
    expect(zh.outcome.message).toMatch(/^未安装适用于 x86_64 的 libjemalloc\.so\.2（已查找 \/usr\/lib\/x86_64-linux-gnu\/libjemalloc\.so\.2；.* 等（另有 5 项））$/);
    expect(zh.outcome.remediation).toBe('sudo apt install libjemalloc2\nexport LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2:$LD_PRELOAD   # 写入启动脚本（qprep env 会打印这一行）');
    expectSameCommands(en.outcome, zh.outcome);
  });

  it('a broken LD_PRELOAD, and a hung ldconfig, in Chinese', async () => {
    const broken = await runInBoth(check, {
      env: { LD_PRELOAD: '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2:', PATH: '/usr/bin' },
      files: { '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2': 'ELF', '/etc/os-release': DEBIAN },
    });
    expect(broken.zh.outcome.message).toBe('LD_PRELOAD 中的 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 在这台 x86_64 主机上不存在；ld.so 会跳过它');
    expect(broken.zh.outcome.remediation).toBe('export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2   # qprep env 会打印适合这台主机的那一行');
    const hung = await runInBoth(check, {
      env: { PATH: '/usr/bin' },
      files: { '/sbin/ldconfig': { kind: 'file', content: '', mode: 0o755 } },
      commands: [{ argv: LDCONFIG_ARGV, timedOut: true }],
    });
    expect(hung.zh.outcome.message).toMatch(/^无法判断 libjemalloc\.so\.2 是否已安装：/);
    expect(hung.zh.outcome.remediation).toBe('确认 ldconfig 在这台主机上可用（ldconfig -p），然后重新运行');
  });
});

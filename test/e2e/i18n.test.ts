import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep } from '../helpers/cli.js';

const BROKEN = ['--snapshot', 'examples/snapshots/a2-broken.json'];

/** The report with what may differ between languages (and between runs) taken out. */
function languageFree(report: Record<string, unknown>): unknown {
  const { lang: _lang, runId: _runId, startedAt: _startedAt, durationMs: _durationMs, ...rest } = report;
  const checks = (rest.checks as Record<string, unknown>[]).map((check) => {
    const { title: _t, message: _m, remediation: _r, details: _d, durationMs: _ms, ...kept } = check;
    return kept;
  });
  return { ...rest, checks };
}

describe('--lang and the language of the environment', () => {
  it('check --lang zh: the JSON report carries lang and a Chinese npu.idle; the rest a program reads is as in English', async () => {
    const [en, zh] = await Promise.all([qprep(['check', ...BROKEN, '-f', 'json', '--lang', 'en']), qprep(['check', ...BROKEN, '-f', 'json', '--lang', 'zh'])]);
    expect(zh.exitCode).toBe(en.exitCode);
    const [english, chinese] = [JSON.parse(en.stdout), JSON.parse(zh.stdout)];
    expect(english.lang).toBe('en');
    expect(chinese.lang).toBe('zh');
    const idle = chinese.checks.find((c: { id: string }) => c.id === 'npu.idle');
    expect(idle.title).toBe('NPU 空闲可用');
    expect(idle.message).toMatch(/被占用/);
    expect(languageFree(chinese)).toEqual(languageFree(english));
  });

  it('LANG=zh_CN.UTF-8 is Chinese, LC_ALL=C over it English, QPREP_LANG over both', async () => {
    const title = async (env: Record<string, string>) => {
      const run = await qprep(['check', ...BROKEN, '--only', 'npu.idle', '-f', 'json'], { env: { QPREP_LANG: '', ...env } });
      return JSON.parse(run.stdout).checks[0].title as string;
    };
    expect(await title({ LANG: 'zh_CN.UTF-8' })).toBe('NPU 空闲可用');
    expect(await title({ LANG: 'zh_CN.UTF-8', LC_ALL: 'C' })).toBe('NPUs free for the workload');
    expect(await title({ LANG: 'zh_CN.UTF-8', QPREP_LANG: 'en' })).toBe('NPUs free for the workload');
  });

  it('a bad --lang or QPREP_LANG is a usage error naming it (exit 2), before anything runs', async () => {
    const flag = await qprep(['check', ...BROKEN, '--lang', 'hz']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('--lang expects en or zh, got "hz"');
    expect(flag.stderr).toContain('did you mean "zh"?');
    const env = await qprep(['check', ...BROKEN, '-f', 'json'], { env: { QPREP_LANG: 'fr' } });
    expect(env.exitCode).toBe(2);
    expect(JSON.parse(env.stdout).error).toMatchObject({ code: 'usage', message: 'QPREP_LANG expects en or zh, got "fr"' });
  });

  it('list --lang zh: the Chinese title of every check in the zh catalogue; ids, levels and categories as in English', async () => {
    const [en, zh] = await Promise.all([qprep(['list', '-f', 'json']), qprep(['list', '-f', 'json', '--lang', 'zh'])]);
    const [english, chinese] = [JSON.parse(en.stdout), JSON.parse(zh.stdout)] as Array<Array<{ id: string; level: string; category: string; title: string; cost: string }>>;
    expect(chinese!.map(({ title: _t, cost: _c, ...rest }) => rest)).toEqual(english!.map(({ title: _t, cost: _c, ...rest }) => rest));
    const converted = chinese!.filter((row) => /\p{Script=Han}/u.test(row.title)).map((row) => row.id);
    for (const id of ['npu.idle', 'npu.smi', 'npu.health', 'host.shm', 'host.disk']) expect(converted).toContain(id);
    const human = await qprep(['list', '--lang', 'zh']);
    expect(human.stdout).toMatch(/^ID +级别 +深度 +类别 +标题\n/);
    expect(human.stdout).toMatch(/npu\.idle +required +quick +npu +NPU 空闲可用\n/);
    expect(human.stdout).toMatch(/hccn\.counters +required +deep +hccn +.*\[hccn_tool 每设备 2 次：-stat -g x2；等待 3 秒\]\n/);
  });

  it('--help in the language of --lang or the locale; a usage error and its hint in that language', async () => {
    const help = await qprep(['check', '--help', '--lang', 'zh']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('运行检查，打印报告');
    expect(help.stdout).toContain('--only <ids>');
    const byLocale = await qprep(['--help'], { env: { QPREP_LANG: '', LANG: 'zh_CN.UTF-8' } });
    expect(byLocale.stdout).toContain('退出码：0 就绪，1 未就绪，2 无结论');
    expect((await qprep(['--help'])).stdout).toContain('Exit codes: 0 ready, 1 not ready, 2 no verdict');
    const usage = await qprep(['check', '--jobs', '0', '--lang', 'zh']);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('--jobs 需要一个正整数，得到的是 "0"');
    const typo = await qprep(['explain', 'npu.idel', '--lang', 'zh', '-f', 'json']);
    expect(typo.exitCode).toBe(2);
    expect(JSON.parse(typo.stdout).error).toMatchObject({ code: 'usage', message: '未知的检查、规则或故障码 "npu.idel"', hint: '您是否要输入 "npu.idle"？' });
  });

  it('an unknown --only/--skip/--ignore token: the usage error and its hint in the language, the code and the flag as in English', async () => {
    const zh = await qprep(['check', '--only', 'npu.smii', '--lang', 'zh', '--format', 'json']);
    expect(zh.exitCode).toBe(2);
    expect(JSON.parse(zh.stdout).error).toMatchObject({ code: 'usage', message: '--only：未知的检查或类别 "npu.smii"', hint: '您是否要输入 "npu.smi"？' });
    const en = await qprep(['check', '--skip', 'npu.smii', '--format', 'json', '--lang', 'en']);
    expect(JSON.parse(en.stdout).error).toMatchObject({ code: 'usage', message: '--skip: unknown check or category "npu.smii"', hint: 'did you mean "npu.smi"?' });
    const far = await qprep(['check', '--ignore', 'zzzqq', '--lang', 'zh']);
    expect(far.exitCode).toBe(2);
    expect(far.stderr).toContain('qprep list 列出所有检查 id 和类别（');
  });

  it('a bad path option is a usage error in the language, judged before anything runs; the code as in English', async () => {
    const zh = await qprep(['check', '--root', '/nonexistent-qprep-root', '--lang', 'zh', '--format', 'json']);
    expect(zh.exitCode).toBe(2);
    expect(JSON.parse(zh.stdout).error).toMatchObject({ code: 'usage', message: '--root /nonexistent-qprep-root：目录不存在' });
    const en = await qprep(['check', '--root', '/nonexistent-qprep-root', '--format', 'json', '--lang', 'en']);
    expect(JSON.parse(en.stdout).error).toMatchObject({ code: 'usage', message: '--root /nonexistent-qprep-root: no such directory' });
    const directory = await qprep(['check', '--snapshot', '/tmp', '--lang', 'zh']);
    expect(directory.exitCode).toBe(2);
    expect(directory.stderr).toContain('--snapshot /tmp：它是目录，不是普通文件');
    const device = await qprep(['aggregate', '/dev/null', '--lang', 'zh']);
    expect(device.exitCode).toBe(2);
    expect(device.stderr).toContain('aggregate：/dev/null：它是字符设备，不是报告文件或目录');
  });

  it('an unknown profile: the error and its did-you-mean in the language, the code as in English', async () => {
    const zh = await qprep(['check', '--profile', 'qwen3.5-397b-w8a8-a3x', '--lang', 'zh', '--format', 'json']);
    expect(zh.exitCode).toBe(2);
    expect(JSON.parse(zh.stdout).error).toMatchObject({ code: 'invalid-profile', message: '未知的 profile "qwen3.5-397b-w8a8-a3x"', hint: '您是否要输入 "qwen3.5-397b-w8a8-a3"？' });
    const en = await qprep(['check', '--profile', 'qwen3.5-397b-w8a8-a3x', '--lang', 'en', '--format', 'json']);
    expect(JSON.parse(en.stdout).error).toMatchObject({ code: 'invalid-profile', message: 'unknown profile "qwen3.5-397b-w8a8-a3x"', hint: 'did you mean "qwen3.5-397b-w8a8-a3"?' });
  });

  it('the errors of the input files (profile, snapshot, cluster, launch script, reports) in the language; code, file and the parser\'s words as in English', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-i18n-inputs-'));
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const badProfile = file('bad.yaml', 'name: bad\nnpu:\n  minDriver: 7\n');
    const notYaml = file('broken.yaml', 'npu: [\n');
    const badSnapshot = file('snap.json', '{"schemaVersion": 1');
    const badCluster = file('cluster.yaml', 'nodes: 3\n');
    const elf = file('serve.sh', '\x7fELF\x02\x01\x01');
    const cases: Array<{ argv: string[]; code: string; en: string; zh: string }> = [
      { argv: ['check', '--profile', badProfile], code: 'invalid-profile', en: `invalid profile ${badProfile}: npu.minDriver:`, zh: `profile ${badProfile} 无效：npu.minDriver:` },
      { argv: ['check', '--profile', notYaml], code: 'invalid-profile', en: `invalid profile ${notYaml}: not valid YAML or JSON: `, zh: `profile ${notYaml} 无效：不是有效的 YAML 或 JSON：` },
      { argv: ['check', '--snapshot', badSnapshot], code: 'invalid-snapshot', en: `invalid snapshot ${badSnapshot}: not JSON: `, zh: `快照 ${badSnapshot} 无效：不是 JSON：` },
      { argv: ['check', ...BROKEN, '--cluster', badCluster], code: 'invalid-cluster', en: `invalid cluster ${badCluster}: `, zh: `集群文件 ${badCluster} 无效：` },
      { argv: ['check', ...BROKEN, '--launch', elf], code: 'invalid-input', en: `cannot read launch script ${elf}: it is an ELF executable, not a bash script`, zh: `无法读取启动脚本 ${elf}：它是 ELF 可执行文件，不是 bash 脚本` },
      { argv: ['check', ...BROKEN, '--verbose', '--quiet'], code: 'usage', en: '--verbose and --quiet contradict each other: give one', zh: '--verbose 与 --quiet 互相矛盾：只给其中一个' },
      { argv: ['aggregate', dir], code: 'invalid-input', en: `invalid report ${badSnapshot}: `, zh: `报告 ${badSnapshot} 无效：` },
    ];
    for (const { argv, code, en, zh } of cases) {
      const [english, chinese] = await Promise.all([qprep([...argv, '--format', 'json', '--lang', 'en']), qprep([...argv, '--format', 'json', '--lang', 'zh'])]);
      expect([english.exitCode, chinese.exitCode], argv.join(' ')).toEqual([2, 2]);
      const [enError, zhError] = [JSON.parse(english.stdout).error, JSON.parse(chinese.stdout).error];
      expect([enError.code, zhError.code], argv.join(' ')).toEqual([code, code]);
      expect(enError.message, argv.join(' ')).toContain(en);
      expect(zhError.message, argv.join(' ')).toContain(zh);
      expect(chinese.stderr, argv.join(' ')).toContain(`qprep: error: ${zhError.message}`);
    }
  });

  it('the refusals of -o, serve and tune in the language; English unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-i18n-refusals-'));
    const link = join(dir, 'report.json');
    symlinkSync(join(dir, 'elsewhere.json'), link);
    const cases: Array<{ argv: string[]; en: string; zh: string }> = [
      { argv: ['check', ...BROKEN, '-f', 'json', '-o', link], en: `cannot write ${link}: it is a symbolic link (to ${join(dir, 'elsewhere.json')})`, zh: `无法写入 ${link}：它是符号链接（指向 ${join(dir, 'elsewhere.json')}）` },
      { argv: ['serve', '--interval', '1m', '--budget', '2m'], en: '--budget 2m is longer than --interval 1m', zh: '--budget 2m 长于 --interval 1m' },
      { argv: ['serve', '--listen', 'node7:9105'], en: '--listen: "node7" is not an IPv4 address', zh: '--listen："node7" 不是 IPv4 地址' },
      { argv: ['tune', ...BROKEN], en: 'a snapshot is read-only: add --dry-run', zh: '快照是只读的：加上 --dry-run' },
    ];
    for (const { argv, en, zh } of cases) {
      const [english, chinese] = await Promise.all([qprep([...argv, '--lang', 'en']), qprep([...argv, '--lang', 'zh'])]);
      expect([english.exitCode, chinese.exitCode], argv.join(' ')).toEqual([2, 2]);
      expect(english.stderr, argv.join(' ')).toContain(`qprep: error: ${en}`);
      expect(chinese.stderr, argv.join(' ')).toContain(`qprep: error: ${zh}`);
    }
  });

  it('the human report in Chinese keeps every fix command byte for byte', async () => {
    const [en, zh] = await Promise.all([qprep(['check', ...BROKEN]), qprep(['check', ...BROKEN, '--lang', 'zh'])]);
    const commands = (text: string, label: RegExp) =>
      text
        .split('\n')
        .map((line) => label.exec(line)?.[1])
        .filter((command): command is string => command !== undefined && /^(kill|npu-smi) /.test(command))
        .map((command) => command.split(/\s{3}#/)[0]);
    const english = commands(en.stdout, /^\s+(?:fix|or): (.*)$/);
    expect(english.length).toBeGreaterThan(0);
    expect(commands(zh.stdout, /^\s+(?:修复|或): (.*)$/)).toEqual(english);
    expect(zh.stdout.trimEnd().split('\n').pop()).toMatch(/^未就绪: 4 个问题（npu\.driver-files; npu\.health; npu\.ecc; npu\.idle）$/);
  });

  it('env --lang zh: Chinese comments, the same unset and export lines', async () => {
    const args = ['env', '--snapshot', 'examples/snapshots/a2-healthy.json'];
    const [en, zh] = await Promise.all([qprep(args), qprep([...args, '--lang', 'zh'])]);
    const code = (text: string) => text.split('\n').filter((line) => !line.startsWith('#'));
    expect(code(zh.stdout)).toEqual(code(en.stdout));
    expect(zh.stdout.split('\n')[0]).toMatch(/^# qprep env：.*加载方式：source <\(npx qprep env\)$/);
  });
});


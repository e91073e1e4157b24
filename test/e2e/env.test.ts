import { execa } from 'execa';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/util/shell.js';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-${prefix}-`));
}

/**
 * Sources `script` in a bash started with an empty environment (plus `preset`), then prints
 * each named variable as NAME, a set/unset flag and the value, NUL-separated: what a launch
 * script would see.
 */
async function sourcedValues(script: string, names: string[], preset: Record<string, string> = {}): Promise<Map<string, string | undefined>> {
  const dir = tmp('source');
  writeFileSync(join(dir, 'env.sh'), script);
  const printer = 'source "$1"; shift; for v in "$@"; do if [ -n "${!v+set}" ]; then printf "%s\\0set\\0%s\\0" "$v" "${!v}"; else printf "%s\\0unset\\0\\0" "$v"; fi; done';
  const run = await execa('bash', ['-c', printer, 'bash', join(dir, 'env.sh'), ...names], {
    extendEnv: false,
    env: { PATH: '/usr/bin:/bin', ...preset },
    stripFinalNewline: false,
    encoding: 'utf8',
  });
  const fields = run.stdout.split('\0');
  const values = new Map<string, string | undefined>();
  for (let i = 0; i + 2 < fields.length; i += 3) values.set(fields[i]!, fields[i + 1] === 'set' ? fields[i + 2] : undefined);
  return values;
}

describe('qprep env, sourced in bash', () => {
  it('sets exactly the printed values, quoting included, and unsets the proxies', async () => {
    const root = tmp('envroot');
    // a jemalloc for whichever architecture runs the test
    for (const arch of ['x86_64', 'aarch64']) {
      mkdirSync(join(root, `usr/lib/${arch}-linux-gnu`), { recursive: true });
      writeFileSync(join(root, `usr/lib/${arch}-linux-gnu/libjemalloc.so.2`), 'ELF');
    }
    const profile = join(root, 'launch.yaml');
    writeFileSync(
      profile,
      [
        'env:',
        '  variables:',
        '    HCCL_BUFFSIZE: 1536',
        '    OMP_NUM_THREADS: null',
        // were quoting broken, bash would run these harmless commands and the values would differ
        `    TRICKY: "it's \\"$HOME\\" \`id -u\` $(echo injected) ; echo injected * ! \\\\ \\n second line"`,
        '    EMPTY: ""',
        '    UNICODE: "模型 ✓ café"',
        '    SPACES: "  leading and trailing  "',
      ].join('\n'),
    );
    const args = ['env', '--root', root, '--profile', profile, '--ip', '127.0.0.1'];
    const sh = await qprep(args);
    expect(sh.exitCode).toBe(0);
    expect(sh.stdout).toMatch(/^# qprep env for .* \(profile launch\); load it with: source <\(npx qprep env\)\n# node address 127\.0\.0\.1 on lo \(--ip\)\n/m);
    expect(sh.stdout).toContain('\nunset http_proxy https_proxy ftp_proxy all_proxy HTTP_PROXY HTTPS_PROXY FTP_PROXY ALL_PROXY\n');
    expect(sh.stdout).toContain('\nexport HCCL_IF_IP=127.0.0.1\nexport GLOO_SOCKET_IFNAME=lo\nexport TP_SOCKET_IFNAME=lo\nexport HCCL_SOCKET_IFNAME=lo\n');
    expect(sh.stdout).not.toContain('OMP_NUM_THREADS');

    const json = await qprep([...args, '--format', 'json']);
    const document = JSON.parse(json.stdout);
    expect((await validateAgainstSchema('env', document)).valid).toBe(true);
    const printed = new Map<string, string>(document.exports.map((v: { name: string; value: string }) => [v.name, v.value]));
    expect(printed.get('LD_PRELOAD')).toMatch(/^\/usr\/lib\/(x86_64|aarch64)-linux-gnu\/libjemalloc\.so\.2$/);
    expect(printed.get('TRICKY')).toBe("it's \"$HOME\" `id -u` $(echo injected) ; echo injected * ! \\ \n second line");

    const names = [...printed.keys(), ...document.unset];
    const seen = await sourcedValues(sh.stdout, names, { http_proxy: 'http://user:pw@proxy:3128', HTTPS_PROXY: 'http://proxy:3128' });
    for (const [name, value] of printed) expect(seen.get(name), name).toBe(value);
    for (const name of document.unset) expect(seen.get(name), name).toBeUndefined();
    expect(seen.size).toBe(names.length);
  });

  it('an address that is not this host\'s is exit 2 with one line, or the JSON error document', async () => {
    const run = await qprep(['env', '--ip', '203.0.113.77']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^qprep: error: --ip: 203\.0\.113\.77 is not an address of this host \(its addresses: .*\)\n$/);
    const json = await qprep(['env', '--ip', '203.0.113.77', '--format', 'json']);
    const document = JSON.parse(json.stdout);
    expect(document).toMatchObject({ command: 'env', error: { code: 'usage' } });
    expect((await validateAgainstSchema('env', document)).valid).toBe(true);
  });

  it('shell quoting survives bash for any string (property, one bash for many values)', async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary-ascii' }),
      fc.array(fc.constantFrom("'", '"', '\\', '$', '`', '!', '\n', '\t', ' ', '*', '?', '[', ']', '~', '{', '}', ';', '&', '|', '<', '>', '(', ')', '#', '=', '%'), { maxLength: 20 }).map((a) => a.join('')),
    );
    const values = fc.sample(fc.array(piece, { maxLength: 4 }).map((parts) => parts.join('').replace(/\0/g, '')), { numRuns: 300, seed: 42 });
    const script = values.map((value, i) => `export V${i}=${shellQuote(value)}`).join('\n');
    const seen = await sourcedValues(script, values.map((_, i) => `V${i}`));
    values.forEach((value, i) => expect(seen.get(`V${i}`), JSON.stringify(value)).toBe(value));
  });
});

describe('qprep env in Chinese', () => {
  it('--lang zh: the comments and notes in Chinese; the export lines and the JSON values byte for byte', async () => {
    const root = tmp('envzh');
    const profile = join(root, 'launch.yaml');
    writeFileSync(profile, ['env:', '  variables:', '    HCCL_IF_IP: 10.0.0.9'].join('\n'));
    const args = ['env', '--root', root, '--profile', profile, '--ip', '127.0.0.1'];
    const english = await qprep(args);
    const chinese = await qprep([...args, '--lang', 'zh']);
    expect(chinese.exitCode).toBe(0);
    const lines = (text: string) => text.split('\n');
    const commands = (text: string) => lines(text).filter((line) => !line.startsWith('#'));
    expect(commands(chinese.stdout)).toEqual(commands(english.stdout));
    expect(lines(chinese.stdout)[0]).toMatch(/^# qprep env：\S+（profile launch）；加载方式：source <\(npx qprep env\)$/);
    expect(chinese.stdout).toMatch(/^# 注意：此处未找到 libjemalloc\.so\.2（.*）：LD_PRELOAD 保持不变；请安装 jemalloc（qprep explain mem\.jemalloc）$/m);
    expect(chinese.stdout).toMatch(/^# 注意：HCCL_IF_IP 取自 profile（10\.0\.0\.9），而不是这台主机（127\.0\.0\.1）$/m);
    // the prefix on standard error stays as log scanners match it; the note is Chinese
    expect(chinese.stderr).toMatch(/^qprep: note: HCCL_IF_IP 取自 profile/m);
    // the sourced values are the same in both languages
    const names = ['HCCL_IF_IP', 'HCCL_SOCKET_IFNAME', 'LD_PRELOAD'];
    expect(await sourcedValues(chinese.stdout, names)).toEqual(await sourcedValues(english.stdout, names));
    const json = async (lang: string) => JSON.parse((await qprep([...args, '--format', 'json', '--lang', lang])).stdout);
    const [en, zh] = [await json('en'), await json('zh')];
    expect({ ...zh, notes: null }).toEqual({ ...en, notes: null });
    expect(zh.notes).toHaveLength(en.notes.length);
  });
});

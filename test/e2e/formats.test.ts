import { execaSync } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qprep } from '../helpers/cli.js';
import { hasTool, PROMTOOL, XMLLINT } from '../helpers/tools.js';

const XSD = fileURLToPath(new URL('../fixtures/junit/jenkins-xunit-junit-10.xsd', import.meta.url));

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-${prefix}-`));
}

function xpath(xml: string, expression: string): string {
  return String(execaSync('xmllint', ['--xpath', expression, '-'], { input: xml }).stdout);
}

/** A profile that requires a port this test holds, so that net.ports fails and the node is not ready. */
describe('machine formats of qprep check, end to end', () => {
  let server: Server;
  let profile: string;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    profile = join(tmp('profile'), 'p.yaml');
    writeFileSync(profile, `host:\n  ports: [${port}]\n  hcclPortCount: 0\n`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  describe.skipIf(!hasTool(XMLLINT, 'libxml2-utils'))('--format junit', () => {
    it('a not-ready node: valid JUnit, the blocking check is the one failure, exit 1', async () => {
      const run = await qprep(['check', '--format', 'junit', '--profile', profile, '--only', 'net.ports,sysctl']);
      expect(run.exitCode).toBe(1);
      const validation = execaSync('xmllint', ['--noout', '--schema', XSD, '-'], { input: run.stdout, reject: false });
      expect(validation.exitCode, String(validation.stderr)).toBe(0);
      expect(xpath(run.stdout, 'string(//testcase/failure/../@name)')).toBe('net.ports');
      expect(xpath(run.stdout, 'string(//testcase[@name="net.ports"]/@classname)')).toBe('network');
      expect(xpath(run.stdout, 'string(//testcase[@name="net.ports"]/failure)')).toContain('fix: ');
      expect(xpath(run.stdout, 'count(//testcase)')).toBe('3');
      expect(xpath(run.stdout, 'string(//property[@name="verdict"]/@value)')).toBe('not ready');
      expect(run.stderr).toBe('');
    });

    it('no verdict: exit 2, the reason on stderr and as an errored testcase on stdout', async () => {
      const dir = tmp('profile');
      writeFileSync(join(dir, 'bad.yaml'), 'host:\n  shmMin: plenty\n');
      const run = await qprep(['check', '--format', 'junit', '--profile', join(dir, 'bad.yaml')]);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/^qprep: error: invalid profile /);
      expect(execaSync('xmllint', ['--noout', '--schema', XSD, '-'], { input: run.stdout, reject: false }).exitCode).toBe(0);
      expect(xpath(run.stdout, 'string(//testcase/error/@type)')).toBe('invalid-profile');
    });
  });

  describe.skipIf(!hasTool(PROMTOOL, 'prometheus'))('--format prometheus --output for the node_exporter textfile collector', () => {
    it('writes a .prom file that promtool accepts, with the verdict the exit code gives', async () => {
      const dir = tmp('textfile');
      const file = join(dir, 'qprep.prom');
      const run = await qprep(['check', '--format', 'prometheus', '--output', file, '--profile', profile, '--only', 'net.ports']);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`qprep: wrote ${file}\n`);
      const text = readFileSync(file, 'utf8');
      expect(execaSync('promtool', ['check', 'metrics'], { input: text, reject: false }).exitCode).toBe(0);
      expect(text).toMatch(/^qprep_ready 0$/m);
      expect(text).toMatch(/^qprep_check_status\{id="net.ports",category="network",level="required",status="fail"\} 1$/m);
      expect(readdirSync(dir)).toEqual(['qprep.prom']);
      expect(statSync(file).mode & 0o777).toBe(0o644);
    });

    it('replaces the file by rename, so the collector reads the old file or the new one, never half of one', async () => {
      const dir = tmp('textfile');
      const file = join(dir, 'qprep.prom');
      await qprep(['check', '--format', 'prometheus', '--output', file, '--only', 'sysctl']);
      const before = statSync(file).ino;
      const beforeText = readFileSync(file, 'utf8');
      await qprep(['check', '--format', 'prometheus', '--output', file, '--only', 'sysctl']);
      expect(statSync(file).ino).not.toBe(before);
      expect(readFileSync(file, 'utf8')).not.toBe(beforeText);
      expect(readdirSync(dir)).toEqual(['qprep.prom']);
    });

    it('a run without a verdict replaces an earlier "ready" file with ready 0 and the error code', async () => {
      const dir = tmp('textfile');
      const file = join(dir, 'qprep.prom');
      await qprep(['check', '--format', 'prometheus', '--output', file, '--only', 'sysctl']);
      expect(readFileSync(file, 'utf8')).toMatch(/^qprep_ready 1$/m);
      writeFileSync(join(dir, 'bad.yaml'), 'host:\n  shmMin: plenty\n');
      const run = await qprep(['check', '--format', 'prometheus', '--output', file, '--profile', join(dir, 'bad.yaml')]);
      expect(run.exitCode).toBe(2);
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^qprep_ready 0$/m);
      expect(text).toMatch(/^qprep_run_error\{code="invalid-profile"\} 1$/m);
      expect(execaSync('promtool', ['check', 'metrics'], { input: text, reject: false }).exitCode).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(['bad.yaml', 'qprep.prom']);
    });

    it('says when the file name is one the textfile collector ignores', async () => {
      const file = join(tmp('textfile'), 'qprep.txt');
      const run = await qprep(['check', '--format', 'prometheus', '--output', file, '--only', 'sysctl']);
      expect(run.stderr).toContain("node_exporter's textfile collector reads only files named *.prom");
    });
  });

  it('the JSON --output file gets the error document too when there is no verdict', async () => {
    const dir = tmp('out');
    const file = join(dir, 'report.json');
    writeFileSync(file, '{"schemaVersion": 1, "ready": true}\n');
    const run = await qprep(['check', '--format', 'json', '--output', file, '--snapshot', join(dir, 'missing.json')]);
    expect(run.exitCode).toBe(2);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ ready: false, error: { code: 'invalid-snapshot' } });
  });
});

describe('-o FORMAT: the name of a format given as the output file', () => {
  const snapshot = fileURLToPath(new URL('../../examples/snapshots/a2-healthy.json', import.meta.url));
  const replay = ['--snapshot', snapshot, '--only', 'npu'];

  it.each(['json', 'junit', 'prometheus'])('check -o %s without -f: exit 2, did you mean -f, and no file written', async (format) => {
    const dir = tmp('o-format');
    const run = await qprep(['check', ...replay, '-o', format], { cwd: dir, env: { PATH: '/nonexistent' } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `qprep: error: -o ${format} would write to a file named "${format}": -o (--output) takes a file, -f (--format) the format (for a file of that name: -o ./${format})\n` +
        `qprep: hint: did you mean "-f ${format}"?\n`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the other commands with a --format and an --output say the same', async () => {
    const dir = tmp('o-format');
    for (const args of [['aggregate', snapshot, '-o', 'json'], ['facts', '--snapshot', snapshot, '--output', 'json']]) {
      const run = await qprep(args, { cwd: dir, env: { PATH: '/nonexistent' } });
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain('qprep: hint: did you mean "-f json"?\n');
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a file of that name is still written when it is given as a path, or with the format', async () => {
    const dir = tmp('o-format');
    const asPath = await qprep(['check', ...replay, '-o', './json'], { cwd: dir, env: { PATH: '/nonexistent' } });
    expect(asPath.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'json'), 'utf8')).toMatch(/READY/);
    const withFormat = await qprep(['check', ...replay, '-f', 'junit', '-o', 'junit'], { cwd: dir, env: { PATH: '/nonexistent' } });
    expect(withFormat.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'junit'), 'utf8')).toMatch(/^<\?xml/);
  });

  it('in Chinese, the text is Chinese', async () => {
    const run = await qprep(['check', ...replay, '-o', 'json', '--lang', 'zh'], { cwd: tmp('o-format'), env: { PATH: '/nonexistent' } });
    expect(run.stderr).toBe('qprep: error: -o json 会写入名为 "json" 的文件：-o（--output）接受文件，-f（--format）接受格式（确要写入该文件名：-o ./json）\nqprep: hint: 您是否要输入 "-f json"？\n');
  });
});

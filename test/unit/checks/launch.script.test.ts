import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.script.js';
import { a3Node, edited, guideScript } from '../../helpers/launch.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/*
 * launch.script has no "error" outcome: it reads nothing but its input, and an input that cannot
 * be read is exit code 2 before any check runs (test/e2e/launch.test.ts).
 */
describe('launch.script', () => {
  it('skips without --launch, saying how to give one', async () => {
    const { outcome } = await runOn(check, a3Node());
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toContain('--launch SCRIPT');
    expect(outcome.remediation).toContain('qprep check --launch');
  });

  it("passes on the guide's run_p.sh: everything is written literally", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('run_p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('run.sh: vllm serve Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp at line 32 with 24 flags, 19 assignments; everything read');
  });

  it("warns about the trailing backslash after the last flag of the guide's single-node script", async () => {
    const { outcome, result } = await runOn(check, a3Node(), {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(outcome.status).toBe('warn');
    expect(result.status).toBe('warn');
    expect(outcome.message).toBe('run.sh: line 35 ends a command with a backslash before a blank line or the end of the file');
    expect(outcome.remediation).toBe('run.sh:35: remove the backslash at the end of the line (a line added below it would become an argument of the command)');
  });

  it('warns about what only a run can tell, with the line', async () => {
    const script = edited(guideScript('run_p.sh'), [['local_ip="xxx"', "local_ip=$(hostname -I | awk '{print $1}')"]]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('run.sh: 1 part cannot be checked without running it (line 7 command substitution)');
    expect(outcome.remediation).toContain("run.sh:7: local_ip (line 7) depends on $(hostname -I | awk '{print $1}')");
    expectRemediation(outcome);
  });

  it('warns when the script runs a known launcher instead of a vLLM server (the guide\'s proxy.sh)', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: { file: '/opt/pd/proxy.sh', text: guideScript('proxy.sh'), from: 'file' } });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^proxy\.sh runs vllm-ascend's PD proxy \(line 10\), not a vLLM server/);
    expectRemediation(outcome);
  });

  it('fails a script that starts neither a vLLM server nor a known launcher: the wrong script was given', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: { file: '/opt/run.sh', text: '#!/bin/bash\necho starting\nexport FOO=1\n', from: 'file' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^run\.sh starts no vLLM server/);
    expectRemediation(outcome);
  });

  it('fails a script with Windows line ends, with the command that converts it', async () => {
    const text = guideScript('run_p.sh').replace(/\n/g, '\r\n');
    const { outcome } = await runOn(check, a3Node(), {}, { launch: { file: '/opt/run_p.sh', text, from: 'file' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^run_p\.sh will not run as written: the script has Windows line ends \(CRLF, first on line 1\)/);
    expect(outcome.remediation).toBe("sed -i 's/\\r$//' /opt/run_p.sh   # or: dos2unix");
  });

  it('fails a script whose quote is never closed, naming the line', async () => {
    // the closing quote of --kv-transfer-config deleted
    const text = edited(guideScript('run_p.sh'), [["\n}'\n", '\n}\n']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: text });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('run.sh will not run as written: the single quote opened on line 57 is never closed: bash refuses the script');
    expect(outcome.remediation).toBe('edit run.sh:57: the single quote opened on line 57 is never closed: bash refuses the script');
    expectRemediation(outcome);
  });

  it('a script of many unevaluated parts and trailing backslashes: the evidence lists 100 notes and counts them, the fix 6 of each and how many more', async () => {
    const unread = Array.from({ length: 150 }, (_, i) => `A${i}=$(hostname -i)`).join('\n');
    const hazards = Array.from({ length: 8 }, (_, i) => `echo ${i} \\\n`).join('\n');
    const { outcome } = await runOn(check, a3Node(), {}, { launch: `${unread}\n${hazards}\nvllm serve /models/Qwen3.5-4B --port 8000\n` });
    expect(outcome.status).toBe('warn');
    expect(outcome.evidence).toMatchObject({ noteCount: 158 });
    expect(outcome.evidence!.notes).toHaveLength(100);
    const lines = outcome.remediation!.split('\n');
    expect(lines).toHaveLength(14);
    expect(lines[6]).toBe('... and 144 more (see the evidence)');
    expect(lines[13]).toBe('... and 2 more (see the evidence)');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.placeholders.js';
import { a3Node, edited, filledIn, guideScript } from '../../helpers/launch.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/*
 * launch.placeholders has no "error" outcome: the script is its only input. When the host's
 * address cannot be found, the fix names the value to look up instead (tested below).
 */
describe('launch.placeholders', () => {
  it('skips without --launch', async () => {
    const { outcome } = await runOn(check, a3Node());
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });

  it("fails the guide's run_p.sh as published: nic_name and local_ip, with this host's values and what uses them", async () => {
    const { outcome, result } = await runOn(check, a3Node(), {}, { launch: guideScript('run_p.sh') });
    expect(result.status).toBe('fail');
    expect(result.level).toBe('required');
    expect(outcome.message).toBe('2 placeholders left in run.sh: nic_name="xxx" (line 6), local_ip="xxx" (line 7)');
    expect(outcome.remediation).toBe(
      [
        'run.sh line 6: nic_name="enp189s0f0"   # the interface carrying 10.0.0.11; used by NETWORK_CARD_NAME, GLOO_SOCKET_IFNAME, TP_SOCKET_IFNAME, HCCL_SOCKET_IFNAME',
        "sed -i '6s/xxx/enp189s0f0/' run.sh",
        'run.sh line 7: local_ip="10.0.0.11"   # this host\'s address on enp189s0f0; used by IP_ADDRESS, HCCL_IF_IP, --host (line 33), --data-parallel-address (line 40)',
        "sed -i '7s/xxx/10.0.0.11/' run.sh",
      ].join('\n'),
    );
  });

  it('its sed lines, run as printed, fill the placeholders in and leave the rest of the script as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-sed-'));
    const script = join(dir, 'run_p.sh');
    const original = guideScript('run_p.sh');
    writeFileSync(script, original);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: { file: script, text: original, from: 'file' } });
    const commands = outcome.remediation!.split('\n').filter((line) => line.startsWith('sed -i '));
    expect(commands).toHaveLength(2);
    for (const command of commands) execFileSync('sh', ['-c', command]);
    const after = readFileSync(script, 'utf8');
    expect(after).toBe(original.replace('nic_name="xxx"', 'nic_name="enp189s0f0"').replace('local_ip="xxx"', 'local_ip="10.0.0.11"'));
    const { outcome: again } = await runOn(check, a3Node(), {}, { launch: { file: script, text: after, from: 'file' } });
    expect(again.status).toBe('pass');
  });

  it('prints no sed line for a script read from stdin or a snapshot: there is no file here to edit', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: { file: '-', text: guideScript('run_p.sh'), from: 'stdin' } });
    expect(outcome.remediation).not.toContain('sed -i');
  });

  it('run_d0.sh is decode node 0 (start rank 0): node0_ip is its own address', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('run_d0.sh') });
    expect(outcome.message).toBe('3 placeholders left in run.sh: nic_name="xxx" (line 7), local_ip="xxx" (line 8), node0_ip="xxxx" (line 10)');
    expect(outcome.remediation).toContain('run.sh line 10: node0_ip="10.0.0.11"   # this node is node 0 (data-parallel start rank 0): its own address');
  });

  it("run_d1.sh starts rank 8: node0_ip is another node's address, which qprep cannot know", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('run_d1.sh') });
    expect(outcome.remediation).toContain('run.sh line 10: node0_ip="<address of node 0>"   # the local_ip set in node 0\'s (the master\'s) script; used by MASTER_IP_ADDRESS, --data-parallel-address (line 43)');
  });

  it("fails the guide's proxy.sh on the 141.xx.xx.N addresses of its flags", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('proxy.sh') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('3 placeholders left in run.sh: --prefiller-hosts "141.xx.xx.1" (line 11), --decoder-hosts "141.xx.xx.2" (line 13), --host "141.xx.xx.1" (line 15)');
  });

  it('passes once the values are filled in', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_d1.sh', '10.0.0.11', '10.0.0.12') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('no placeholder in run.sh (20 assignments and the server flags read)');
  });

  it('fails an empty nic_name="", and a variable that is empty because what it refers to is set nowhere', async () => {
    const script = edited(filledIn('run_p.sh'), [
      ['nic_name="enp189s0f0"', 'nic_name=""'],
      ['local_ip="10.0.0.11"\n', ''],
    ]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('2 placeholders left in run.sh: nic_name empty (line 6), IP_ADDRESS empty (line 14: $local_ip is set nowhere)');
  });

  it('catches <...>, /path/to/ and x.x.x.x in a model path and in values', async () => {
    const script = 'export HCCL_IF_IP=x.x.x.x\nexport MOONCAKE_CONFIG_PATH="/home/xxx/mooncake.json"\nvllm serve /path/to/model --host "<node0_ip>"\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.message).toBe('4 placeholders left in run.sh: HCCL_IF_IP="x.x.x.x" (line 1), MOONCAKE_CONFIG_PATH="/home/xxx/mooncake.json" (line 2), the model "/path/to/model" (line 3), --host "<node0_ip>" (line 3)');
    expect(outcome.remediation).toContain('run.sh line 2: replace xxx in MOONCAKE_CONFIG_PATH with the real value');
  });

  it('catches an angle placeholder that starts with a digit (Qwen3.8-2.4T-A95B tutorial: DP_START_RANK=<1_OR_2_OR_3>)', async () => {
    const script = 'export DP_START_RANK=<1_OR_2_OR_3>\nvllm serve /models/q --data-parallel-size 4 --data-parallel-size-local 1 --data-parallel-start-rank $DP_START_RANK -tp 16\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.message).toBe('1 placeholder left in run.sh: DP_START_RANK="<1_OR_2_OR_3>" (line 1; unquoted, bash reads <1_OR_2_OR_3> as a redirection)');
  });

  it('catches a relative path/to/ stand-in (graph_mode.md: vllm serve path/to/Qwen3-30B-A3B)', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve path/to/Qwen3-30B-A3B --tensor-parallel-size 4\n' });
    expect(outcome.message).toBe('1 placeholder left in run.sh: the model "path/to/Qwen3-30B-A3B" (line 1)');
  });

  it('catches the stand-ins of the vllm-ascend examples: model_path and xx.xx.xx.xx', async () => {
    const script = 'export HCCL_IF_IP=xx.xx.xx.xx\nvllm serve "model_path" --host xx.xx.xx.xx\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.message).toBe('3 placeholders left in run.sh: HCCL_IF_IP="xx.xx.xx.xx" (line 1), the model "model_path" (line 2), --host "xx.xx.xx.xx" (line 2)');
    expect(outcome.remediation).toContain('run.sh line 2: --host 10.0.0.11   # this host\'s address on enp189s0f0');
    expect(outcome.remediation).toContain('run.sh line 2: vllm serve <the weights directory or hub id>   # instead of model_path');
  });

  it('still names the fix when this host has no address to suggest', async () => {
    const { outcome } = await runOn(check, a3Node({ interfaces: { error: 'EACCES' } }), {}, { launch: guideScript('run_p.sh') });
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toContain('nic_name="<interface>"   # the interface that carries this node\'s address (ip -br addr)');
  });

  it('does not take a secret for a placeholder, and never prints one', async () => {
    const script = 'export HF_TOKEN=hf_xxxxxxxxxxxxxxxx\nexport API_KEY=xxx\nvllm serve /m\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(JSON.stringify(outcome)).not.toContain('hf_xxxxxxxxxxxxxxxx');
    expect(outcome.message).toBe('1 placeholder left in run.sh: API_KEY="***" (line 2)');
  });
});

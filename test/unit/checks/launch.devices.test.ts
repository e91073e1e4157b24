import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.devices.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, filledIn, guideScript, NODE_INTERFACES } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const A2 = () => ({ ...npuHost({ info: ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt') }), interfaces: NODE_INTERFACES });

describe('launch.devices', () => {
  it('skips without --launch', async () => {
    const { outcome } = await runOn(check, a3Node());
    expect(outcome.status).toBe('skip');
  });

  it("skips a device list left as a placeholder (netloader.md's <device_id_diff_from_server>): launch.placeholders names it", async () => {
    const script = 'VLLM_SLEEP_WHEN_IDLE=1 ASCEND_RT_VISIBLE_DEVICES=<device_id_diff_from_server> \\\n  vllm serve /models/q --tensor-parallel-size 1\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toBe('ASCEND_RT_VISIBLE_DEVICES (run.sh:1) is the placeholder <device_id_diff_from_server>: the devices are judged once it is filled in (launch.placeholders names it)');
  });

  it('passes run_p.sh on an A3: TP 2 x DP-local 8 = 16 dies, all listed in ASCEND_RT_VISIBLE_DEVICES', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('TP 2 x DP-local 8 = 16 NPUs fit 16 NPUs of ASCEND_RT_VISIBLE_DEVICES (0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15)');
  });

  it('passes the single-node A3 script: TP 16 x DP 1 on all 16 dies', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('TP 16 x DP 1 = 16 NPUs fit all 16 NPUs this host sees');
  });

  it('fails the A3 device list on an A2 (8 NPUs), naming the ids that do not exist', async () => {
    const { outcome, result } = await runOn(check, A2(), {}, { launch: filledIn('run_p.sh') });
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe('ASCEND_RT_VISIBLE_DEVICES (run.sh:31) lists 8-15, which this host does not have: it sees 8 NPUs (ids 0-7)');
    expect(outcome.remediation).toBe('run.sh line 31: export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7');
  });

  it('in a container, says the ids are renumbered from 0 (reference 6.3)', async () => {
    const two = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
    const spec = npuHost({ info: two, devices: [4, 5], container: true });
    const script = 'export ASCEND_RT_VISIBLE_DEVICES=4,5\nvllm serve /m --tensor-parallel-size 2\n';
    // the fixture lists 8 NPUs; keep the rows of two of them, as the container sees them
    const rows = two.split('\n');
    const header = rows.slice(0, 6);
    const npus = rows.slice(6, 12);
    const tail = rows.slice(rows.findIndex((l) => l.includes('Process id')) - 1);
    const info = [...header, ...npus, ...tail].join('\n');
    const { outcome } = await runOn(check, { ...spec, commands: [{ argv: ['/usr/local/bin/npu-smi', 'info'], stdout: info }] }, {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      'ASCEND_RT_VISIBLE_DEVICES (run.sh:1) lists 4-5, which this container does not have: it sees 2 NPUs (ids 0-1) (inside a container the ids are renumbered from 0: use 0..n-1, not the host ids)',
    );
    expect(outcome.remediation).toContain('export ASCEND_RT_VISIBLE_DEVICES=0,1');
  });

  it('fails a layout larger than the NPUs: run_d1.sh (TP 2 x DP-local 8) on an A2', async () => {
    const { outcome } = await runOn(check, A2(), {}, { launch: filledIn('run_d1.sh', '10.0.0.11', '10.0.0.12') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('run.sh needs TP 2 x DP-local 8 = 16 NPUs on this node, but it gets all 8 NPUs this host sees');
    expect(outcome.remediation).toBe('--data-parallel-size-local 4   # in run.sh at line 34');
  });

  it('splits TP over the nodes of --nnodes: TP 16 on two A2 nodes is 8 NPUs each', async () => {
    const { outcome } = await runOn(check, A2(), {}, { launch: 'vllm serve /m -tp 16 --nnodes 2 --node-rank 1\n' });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('TP 16 / 2 nodes x DP 1 = 8 NPUs fit all 8 NPUs this host sees');
  });

  it('fails a device list that is not one', async () => {
    const script = edited(filledIn('run_p.sh'), [['ASCEND_RT_VISIBLE_DEVICES=0,1,2', 'ASCEND_RT_VISIBLE_DEVICES=all,1,2']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^ASCEND_RT_VISIBLE_DEVICES \(run\.sh:31\) is "all,1,2,/);
    expectRemediation(outcome);
  });

  it('warns when the device list is computed at run time', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'export ASCEND_RT_VISIBLE_DEVICES=$(cat /etc/devices)\nvllm serve /m\n' });
    expect(outcome.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('skips sizing when a size flag is not a number (launch.flags reports it)', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m --tensor-parallel-size two\n' });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toBe('cannot size the server of run.sh: --tensor-parallel-size is "two", not a whole number (line 1) (launch.flags reports it)');
  });

  it('is an error when the NPUs cannot be listed', async () => {
    const { outcome } = await runOn(check, { interfaces: NODE_INTERFACES }, {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('error');
    expect(outcome.message).toMatch(/^cannot list the NPUs to check run\.sh against: npu-smi not found/);
    expectRemediation(outcome);
  });
});

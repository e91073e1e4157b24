import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import type { LaunchInput } from '../../../src/core/launch-input.js';
import { viewOf } from '../../../src/probes/launch.js';
import { invocationsOf, readLaunchScript } from '../../../src/parsers/launch-script.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, guideScript, listener, NODE_INTERFACES, TCP_HEADER } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/**
 * A template whose sizes are its arguments (examples/external_online_dp/run_dp_template.sh, byte
 * for byte) given with the script that runs it: a repeated --launch. The launchers below are
 * written here: they pass the argv that launch_online_dp.py builds for its README's one-node
 * example (`--dp-size 4 --tp-size 4 --dp-size-local 4 --dp-rank-start 0 --dp-rpc-port 12342`,
 * with 10.0.0.11 in place of the README's x.x.x.x): rank i gets devices i*4..i*4+3, port 9000+i.
 */

const TEMPLATE = guideScript('run_dp_template.sh');
const byId = (id: string) => catalogue.find((c) => c.id === id)!;

function given(launcher: string, launcherFirst = false): LaunchInput {
  const template: LaunchInput = { file: 'examples/external_online_dp/run_dp_template.sh', text: TEMPLATE, from: 'file' };
  const runner: LaunchInput = { file: 'launch.sh', text: launcher, from: 'file' };
  return launcherFirst ? { ...runner, launchers: [template] } : { ...template, launchers: [runner] };
}

const RANKS = [0, 1, 2, 3].map((i) => `bash ./run_dp_template.sh ${[0, 1, 2, 3].map((d) => i * 4 + d).join(',')} ${9000 + i} 4 ${i} 10.0.0.11 12342 4 &`).join('\n');
const ONE_RANK = 'bash ./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4\n';

describe('invocationsOf: the commands that run a script with arguments', () => {
  it('bash x.sh, sh -x x.sh, ./x.sh, nohup /opt/x.sh; not another script of the same directory', () => {
    const launcher = readLaunchScript('bash run.sh 1 2\nsh -x ./run.sh 3\n./run.sh "a b" 4 &\nnohup /opt/run.sh 5 > log 2>&1 &\nbash other.sh 6\n', {});
    const calls = invocationsOf(launcher, 'dir/run.sh');
    expect(calls.map((c) => [c.line, c.script, c.args.map((a) => a.text)])).toEqual([
      [1, 'run.sh', ['1', '2']],
      [2, './run.sh', ['3']],
      [3, './run.sh', ['a b', '4']],
      [4, '/opt/run.sh', ['5']],
    ]);
  });

  it('binds $1..$N where the script reads them, quoted or not', () => {
    const positional = invocationsOf(readLaunchScript('bash t.sh 0,1 "x y"\n', {}), 't.sh')[0]!.args;
    const script = readLaunchScript('export ASCEND_RT_VISIBLE_DEVICES=$1\nvllm serve /m --served-model-name "$2" --port ${3}\n', {}, { positional });
    expect(script.variables.get('ASCEND_RT_VISIBLE_DEVICES')!.value).toMatchObject({ text: '0,1', known: true });
    expect(script.serve!.args.map((a) => [a.text, a.known])).toEqual([
      ['/m', true],
      ['--served-model-name', true],
      ['x y', true],
      ['--port', true],
      ['${3}', false],
    ]);
  });
});

describe('run_dp_template.sh with the launcher that runs it (--launch TEMPLATE --launch LAUNCHER)', () => {
  it('reads the sizes from the launcher: no "sizes come from the caller", TP 4 judged on the 4 devices it is given', async () => {
    const flags = await runOn(byId('launch.flags'), a3Node(), {}, { launch: given(ONE_RANK) });
    expect(flags.outcome.message).not.toMatch(/caller/);
    const devices = await runOn(byId('launch.devices'), a3Node(), {}, { launch: given(ONE_RANK) });
    expect(devices.outcome).toMatchObject({ status: 'pass' });
    expect(devices.outcome.message).toMatch(/^TP 4 x DP 1 = 4 NPUs fit 4 NPUs of ASCEND_RT_VISIBLE_DEVICES \(0,1,2,3\)/);
    const script = await runOn(byId('launch.script'), a3Node(), {}, { launch: given(ONE_RANK) });
    expect(script.outcome.message).toContain('$1..$7 from launch.sh:1 (./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4)');
  });

  it('the launcher given first: the script that starts the server is still the one judged', async () => {
    const view = viewOf(given(ONE_RANK, true), {});
    expect(view.name).toBe('run_dp_template.sh');
    expect(view.serve!.parsed.flags.find((f) => f.name === 'tensor-parallel-size')!.value).toMatchObject({ text: '4', known: true });
  });

  it('a launcher that starts four ranks: the first is judged, the three others are named', async () => {
    const { outcome } = await runOn(byId('launch.script'), a3Node(), {}, { launch: given(RANKS) });
    expect(outcome.message).toContain('$1..$7 from launch.sh:1 (./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4); 3 other invocations with other arguments judged only by launch.devices and launch.ports (launch.sh:2, launch.sh:3, launch.sh:4)');
  });

  it('every invocation is judged for devices and ports: rank 1 given devices 8-15 on an 8-NPU host fails, naming its line', async () => {
    const a2 = { ...npuHost({ info: ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt') }), interfaces: NODE_INTERFACES };
    const spec = { ...a2, files: { ...a2.files, '/proc/net/tcp': TCP_HEADER + listener(9001, 4242), '/proc/net/tcp6': TCP_HEADER } };
    const launcher = 'bash ./run_dp_template.sh 0,1,2,3,4,5,6,7 9000 2 0 10.0.0.11 12342 8 &\nbash ./run_dp_template.sh 8,9,10,11,12,13,14,15 9001 2 1 10.0.0.11 12342 8 &\n';
    const devices = await runOn(byId('launch.devices'), spec, {}, { launch: given(launcher) });
    expectRemediation(devices.outcome);
    expect(devices.outcome.status).toBe('fail');
    expect(devices.outcome.message).toMatch(/^with the arguments of launch.sh:2: ASCEND_RT_VISIBLE_DEVICES \(run_dp_template.sh:13\) lists 8-15, which this host does not have/);
    const ports = await runOn(byId('launch.ports'), spec, {}, { launch: given(launcher) });
    expect(ports.outcome.status).toBe('fail');
    expect(ports.outcome.message).toMatch(/^with the arguments of launch.sh:2: 1 port of run_dp_template.sh is in use: 9001 \(--port/);
    // rank 0 alone is fine: the first invocation is not the one at fault
    const first = await runOn(byId('launch.devices'), spec, {}, { launch: given(launcher.split('\n')[0]! + '\n') });
    expect(first.outcome.status).toBe('pass');
  });

  it('a size the launcher gets wrong is a finding of the template: TP 16 on the four devices of rank 0', async () => {
    const wrong = 'bash ./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 16\n';
    const { outcome } = await runOn(byId('launch.devices'), a3Node(), {}, { launch: given(wrong) });
    expectRemediation(outcome);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/TP 16/);
  });

  it('without the launcher, the template is still a template (one warning, nothing derived)', async () => {
    const { outcome } = await runOn(byId('launch.flags'), a3Node(), {}, { launch: { file: 'run_dp_template.sh', text: TEMPLATE, from: 'file' } });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^sizes come from the caller: \$7 = --tensor-parallel-size, \$3 = --data-parallel-size/);
  });

  it('a launcher whose arguments are computed at run time binds values that stay unknown', async () => {
    const loop = 'for i in 0 1; do\n  bash ./run_dp_template.sh $(cat devices) $((9000 + i)) 2 $i 10.0.0.11 12342 $(nproc)\ndone\n';
    const { outcome } = await runOn(byId('launch.flags'), a3Node(), {}, { launch: given(loop) });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'sizes come from the caller: $7 = --tensor-parallel-size; launch.sh:2 (./run_dp_template.sh $(cat devices) $((9000 + i)) 2 $i 10.0.0.11 12342 $(nproc)) passes it computed at run time, and nothing is derived from it here',
    );
    const devices = await runOn(byId('launch.devices'), a3Node(), {}, { launch: given(loop) });
    expect(devices.outcome.status).toBe('skip');
  });
});

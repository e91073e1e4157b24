import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.ports.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, filledIn, listener, NODE_INTERFACES, TCP_HEADER } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/**
 * run_p.sh with the kv_port the multi-node PD guide recommends for 16 NPUs per node (36010, as
 * the same guide's run_d0.sh has): the cases below are about other ports.
 */
function runP(): string {
  return edited(filledIn('run_p.sh'), [['"kv_port": "23010"', '"kv_port": "36110"']]);
}

describe('launch.ports', () => {
  it("leaves netloader.md's --port `<port>` (a placeholder in backticks) to launch.placeholders", async () => {
    const script = 'vllm serve /models/q \\\n  --tensor-parallel-size 1 \\\n  --port `<port>` \\\n  --load-format netloader\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(String(outcome.message)).not.toMatch(/--port/);
  });

  it('skips without --launch', async () => {
    const { outcome } = await runOn(check, a3Node());
    expect(outcome.status).toBe('skip');
  });

  it("passes run_p.sh with a kv_port above the reserved range: the API port, the master's RPC port, the Mooncake kv ports of 16 ranks and 16 HCCL ports", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: runP() });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe(
      'ports of run.sh are free: 30060 --port, 6884 --data-parallel-rpc-port, 36110-36125 kv ports of MooncakeLayerwiseConnector, 60000-60015 HCCL listen ports (default base 60000)',
    );
  });

  it("warns on the guide's run_p.sh kv_port 23010 on an A3 (16 dies): inside 20000-35999, AscendDirectTransport's ports (pd_disaggregation_mooncake_multi_node.md)", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'kv_port 23010 of MooncakeLayerwiseConnector (run.sh:59) is inside 20000-35999, the ports Mooncake\'s AscendDirectTransport allocates at random on a node of 16 NPUs ' +
        '(docs/source/tutorials/features/pd_disaggregation_mooncake_multi_node.md, "kv_port Configuration Guide"): the server fails now and then with "Address already in use"',
    );
    expect(outcome.remediation).toBe('run.sh line 59: "kv_port": "36000"   # at or above 36000, as the guide\'s table recommends for 16 NPUs per node; the same on every node of the role');
  });

  it('the range follows the NPUs of the node: 20000-27999 on an 8-NPU A2, 20000-35999 on a 16-die A3; ranks reaching into it count', async () => {
    const a2 = { ...npuHost({ info: ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt') }), interfaces: NODE_INTERFACES, files: { ...npuHost({ info: ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt') }).files, '/proc/net/tcp': TCP_HEADER, '/proc/net/tcp6': TCP_HEADER } };
    const script = (port: number) => `vllm serve /m -tp 2 --kv-transfer-config '{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_producer", "kv_port": "${port}"}'\n`;
    expect((await runOn(check, a2, {}, { launch: script(28000) })).outcome.status).toBe('pass');
    const inside = await runOn(check, a2, {}, { launch: script(27999) });
    expect(inside.outcome.message).toMatch(/^kv_port 27999 of MooncakeConnectorV1 \(run.sh:1\) is inside 20000-27999, .* on a node of 8 NPUs/);
    expect((await runOn(check, a3Node(), {}, { launch: script(28000) })).outcome.status).toBe('warn');
    expect((await runOn(check, a3Node(), {}, { launch: script(36000) })).outcome.status).toBe('pass');
    // TP 2: kv_port 19999 opens 19999 and 20000
    expect((await runOn(check, a3Node(), {}, { launch: script(19999) })).outcome.status).toBe('warn');
    expect((await runOn(check, a3Node(), {}, { launch: script(19998) })).outcome.status).toBe('pass');
    const other = await runOn(check, a3Node(), {}, { launch: script(28000).replace('MooncakeConnectorV1', 'UCMConnector') });
    // another connector's kv_port is not Mooncake's
    expect(other.outcome.status).toBe('pass');
  });

  it('run_d1.sh (headless, ranks 8-15): no API or RPC port, and the kv ports of its own ranks', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_d1.sh', '10.0.0.11', '10.0.0.12') });
    expect(outcome.message).toBe('ports of run.sh are free: 36026-36041 kv ports of MooncakeLayerwiseConnector, 60000-60015 HCCL listen ports (default base 60000)');
  });

  it('fails a port held by a leftover process, naming it', async () => {
    const files = {
      '/proc/net/tcp': TCP_HEADER + listener(30060, 4242) + listener(60003, 4343, 1),
      '/proc/77/fd/3': { kind: 'symlink' as const, target: 'socket:[4242]' },
      '/proc/77/comm': 'python3\n',
    };
    const { outcome, result } = await runOn(check, a3Node({ files }), {}, { launch: runP() });
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe('2 ports of run.sh are in use: 30060 (--port; pid 77 python3), 60003 (HCCL listen ports (default base 60000); owner not visible)');
    expect(outcome.remediation).toBe('kill 77   # python3, if it is a leftover; or move the port in run.sh');
  });

  it('a node after the first of --nnodes runs no API server', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m -tp 32 --nnodes 2 --node-rank 1\n' });
    expect(outcome.message).toBe('ports of run.sh are free: 60000-60015 HCCL listen ports (default base 60000)');
  });

  it('fails HCCL_IF_BASE_PORT + devices past 65535', async () => {
    const script = edited(runP(), [['export VLLM_USE_V1=1', 'export VLLM_USE_V1=1\nexport HCCL_IF_BASE_PORT=65530']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_IF_BASE_PORT 65530 + 16 devices runs past 65535 (to 65545)');
    expect(outcome.remediation).toBe('export HCCL_IF_BASE_PORT=55000   # base + devices must stay <= 65535');
  });

  it('fails two roles on one port', async () => {
    const script = edited(runP(), [['--port 30060', '--port 36112']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('port 36112 is both --port and kv ports of MooncakeLayerwiseConnector');
    expectRemediation(outcome);
  });

  it('fails a port that is not a number, and warns when it is computed at run time', async () => {
    const bad = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m --port http\n' });
    expect(bad.outcome.status).toBe('fail');
    expect(bad.outcome.message).toBe('--port is "http", not a whole number (run.sh:1)');
    const dynamic = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m --port $((BASE + 1))\n' });
    expect(dynamic.outcome.status).toBe('warn');
  });

  it('checks vLLM\'s default API port when --port is not given', async () => {
    const { outcome } = await runOn(check, a3Node({ files: { '/proc/net/tcp': TCP_HEADER + listener(8000, 11) } }), {}, { launch: 'vllm serve /m\n' });
    expect(outcome.message).toBe('1 port of run.sh is in use: 8000 (--port (vLLM default); owner not visible)');
  });

  it('is an error when the listening sockets cannot be read', async () => {
    const { outcome } = await runOn(check, a3Node({ files: { '/proc/net/tcp': { error: 'EACCES' } } }), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

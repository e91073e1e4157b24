import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.ports.js';
import { a3Node, edited, filledIn, listener, TCP_HEADER } from '../../helpers/launch.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

describe('launch.ports', () => {
  it('skips without --launch', async () => {
    const { outcome } = await runOn(check, a3Node());
    expect(outcome.status).toBe('skip');
  });

  it("passes run_p.sh: the API port, the master's RPC port, the Mooncake kv ports of 16 ranks and 16 HCCL ports", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe(
      'ports of run.sh are free: 30060 --port, 6884 --data-parallel-rpc-port, 23010-23025 kv ports of MooncakeLayerwiseConnector, 60000-60015 HCCL listen ports (default base 60000)',
    );
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
    const { outcome, result } = await runOn(check, a3Node({ files }), {}, { launch: filledIn('run_p.sh') });
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe('2 ports of run.sh are in use: 30060 (--port; pid 77 python3), 60003 (HCCL listen ports (default base 60000); owner not visible)');
    expect(outcome.remediation).toBe('kill 77   # python3, if it is a leftover; or move the port in run.sh');
  });

  it('a node after the first of --nnodes runs no API server', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m -tp 32 --nnodes 2 --node-rank 1\n' });
    expect(outcome.message).toBe('ports of run.sh are free: 60000-60015 HCCL listen ports (default base 60000)');
  });

  it('fails HCCL_IF_BASE_PORT + devices past 65535', async () => {
    const script = edited(filledIn('run_p.sh'), [['export VLLM_USE_V1=1', 'export VLLM_USE_V1=1\nexport HCCL_IF_BASE_PORT=65530']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_IF_BASE_PORT 65530 + 16 devices runs past 65535 (to 65545)');
    expect(outcome.remediation).toBe('export HCCL_IF_BASE_PORT=55000   # base + devices must stay <= 65535');
  });

  it('fails two roles on one port', async () => {
    const script = edited(filledIn('run_p.sh'), [['--port 30060', '--port 23012']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('port 23012 is both --port and kv ports of MooncakeLayerwiseConnector');
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

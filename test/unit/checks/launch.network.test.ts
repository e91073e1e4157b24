import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.network.js';
import { a3Node, edited, filledIn, guideScript, iface, LOOPBACK, NODE_INTERFACES } from '../../helpers/launch.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

describe('launch.network', () => {
  it('skips without --launch', async () => {
    const { outcome } = await runOn(check, a3Node());
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });

  it('passes a filled-in run_p.sh: HCCL_IF_IP is local, the interface is up and carries it, the master is this node', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('run.sh: HCCL_IF_IP 10.0.0.11 on enp189s0f0, HCCL_SOCKET_IFNAME enp189s0f0 up');
  });

  it("fails the guide's placeholders: xxx is no address and no interface", async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('run_p.sh') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_IF_IP (run.sh:17, from local_ip at line 7) is "xxx", not an IP address (and 1 more)');
    expect(outcome.remediation).toBe(
      ['run.sh line 7: local_ip="10.0.0.11"   # this host\'s address on enp189s0f0', 'run.sh line 6: nic_name="enp189s0f0"   # the interface carrying 10.0.0.11'].join('\n'),
    );
  });

  it('fails an address of another host, and fixes the line where it is written', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_p.sh', '10.0.0.99') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      'HCCL_IF_IP (run.sh:17, from local_ip at line 7) is 10.0.0.99, which is not an address of this host (it has 10.0.0.11 (enp189s0f0), 192.168.1.11 (eno1))',
    );
    expect(outcome.remediation).toContain('run.sh line 7: local_ip="10.0.0.11"');
  });

  it('fails an interface that does not carry HCCL_IF_IP: they must name one interface', async () => {
    const script = edited(filledIn('run_p.sh'), [['nic_name="enp189s0f0"', 'nic_name="eno1"']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_SOCKET_IFNAME (run.sh:20, from nic_name at line 6) names eno1, but HCCL_IF_IP 10.0.0.11 is on enp189s0f0: they must name one interface');
    expect(outcome.remediation).toBe('run.sh line 6: nic_name="enp189s0f0"   # the interface carrying 10.0.0.11');
  });

  it('fails an interface that is down, and one that does not exist', async () => {
    const down = [LOOPBACK, iface('enp189s0f0', '10.0.0.11', { adminUp: false, operState: 'down' })];
    const { outcome } = await runOn(check, a3Node({ interfaces: down }), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_IF_IP (run.sh:17, from local_ip at line 7) 10.0.0.11 is on enp189s0f0, which is down (and 1 more)');
    expect(outcome.remediation).toContain('sudo ip link set enp189s0f0 up');
    const missing = edited(filledIn('run_p.sh'), [['nic_name="enp189s0f0"', 'nic_name="ens1f0"']]);
    const gone = await runOn(check, a3Node(), {}, { launch: missing });
    expect(gone.outcome.message).toBe('HCCL_SOCKET_IFNAME (run.sh:20, from nic_name at line 6) is "ens1f0", and no interface of this host matches it (interfaces: lo, enp189s0f0, eno1)');
    expect(gone.outcome.remediation).toBe('run.sh line 6: nic_name="enp189s0f0"   # the interface carrying 10.0.0.11');
    // GLOO_SOCKET_IFNAME takes exact names
    const gloo = await runOn(check, a3Node(), {}, { launch: 'export HCCL_IF_IP=10.0.0.11\nexport GLOO_SOCKET_IFNAME=ens1f0\nvllm serve /m\n' });
    expect(gloo.outcome.message).toBe('GLOO_SOCKET_IFNAME (run.sh:2) names ens1f0, which does not exist here (interfaces: lo, enp189s0f0, eno1)');
  });

  it('warns when an HCCL_SOCKET_IFNAME prefix matches several interfaces', async () => {
    const script = 'export HCCL_IF_IP=10.0.0.11\nexport HCCL_SOCKET_IFNAME=en\nvllm serve /m\n';
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('HCCL_SOCKET_IFNAME (run.sh:2) "en" matches 2 interfaces (enp189s0f0, eno1) and HCCL takes the first one');
    expect(outcome.remediation).toBe('run.sh line 2: HCCL_SOCKET_IFNAME="=enp189s0f0"   # an exact name ("=" prefix) leaves HCCL no choice');
  });

  it('run_d1.sh: a master on another node is reachable when it answers, even with a refusal (not started yet)', async () => {
    const launch = filledIn('run_d1.sh', '10.0.0.11', '10.0.0.12');
    const refused = await runOn(check, a3Node(), {}, { launch });
    expect(refused.outcome.status).toBe('pass');
    expect(refused.outcome.message).toContain('10.0.0.12 answers (port 6884 refused: nothing listens yet)');
    const unreachable = await runOn(check, a3Node({ tcp: [{ host: '10.0.0.12', port: 6884, ok: false, error: 'EHOSTUNREACH' }] }), {}, { launch });
    expect(unreachable.outcome.status).toBe('fail');
    expect(unreachable.outcome.message).toBe('--data-parallel-address (run.sh:43): 10.0.0.12:6884 does not answer (EHOSTUNREACH)');
    expect(unreachable.outcome.remediation).toContain('nc -vz 10.0.0.12 6884');
    const replayed = await runOn(check, a3Node({ tcp: [{ host: '10.0.0.12', port: 6884, ok: false, error: 'not captured in the snapshot' }] }), {}, { launch });
    expect(replayed.outcome.status).toBe('warn');
    expect(replayed.outcome.message).toBe('--data-parallel-address (run.sh:43): whether 10.0.0.12:6884 answers was not captured in the snapshot');
  });

  it('run_d0.sh starts rank 0: its master address must be its own', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_d0.sh', '10.0.0.11', '10.0.0.12') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('this node starts data-parallel rank 0 (the master) but --data-parallel-address (run.sh:44) 10.0.0.12 is not one of its addresses');
    expect(outcome.remediation).toBe('run.sh line 10: node0_ip="10.0.0.11"   # the master is this node: its own address');
  });

  it('a decode node that is not the master but names this host as the master is warned, with the fix at node0_ip', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn('run_d1.sh', '10.0.0.11', '10.0.0.11') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('--data-parallel-address (run.sh:43) 10.0.0.11 is this host, but this node is not the master (start rank 8, --headless)');
    expect(outcome.remediation).toBe('run.sh line 10: node0_ip="<address of node 0>"   # node 0\'s local_ip');
  });

  it('fails a node of a multi-node instance without --data-parallel-address: vLLM would use 127.0.0.1', async () => {
    const withoutAddress = (name: 'run_d0.sh' | 'run_d1.sh') => edited(filledIn(name, '10.0.0.11', '10.0.0.11'), [['--data-parallel-address ${MASTER_IP_ADDRESS} \\\n', '']]);
    const master = await runOn(check, a3Node(), {}, { launch: withoutAddress('run_d0.sh') });
    expect(master.outcome.status).toBe('fail');
    expect(master.outcome.message).toBe('run.sh serves 8 of 16 data-parallel ranks (the rest on other nodes) without --data-parallel-address: vLLM then uses 127.0.0.1, which the other nodes cannot reach');
    expect(master.outcome.remediation).toContain('run.sh line 35: --data-parallel-address 10.0.0.11   # this node starts rank 0: its own address, the same on every node of the instance');
    const follower = await runOn(check, a3Node(), {}, { launch: withoutAddress('run_d1.sh') });
    expect(follower.outcome.remediation).toContain("run.sh line 34: --data-parallel-address <address of the node that starts rank 0>   # node 0's local_ip");
    // one node serving every rank needs no master address
    expect((await runOn(check, a3Node(), {}, { launch: edited(filledIn('run_p.sh'), [['--data-parallel-address ${IP_ADDRESS} \\\n', '']]) })).outcome.status).toBe('pass');
  });

  it('warns about proxy variables that reach vllm, and passes the ones the script unsets', async () => {
    const env = { PATH: '/usr/bin', http_proxy: 'http://user:secret@proxy:3128', HTTPS_PROXY: 'http://proxy:3128' };
    const { outcome } = await runOn(check, a3Node({ env }), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('proxy variables reach vllm: HTTPS_PROXY (inherited)');
    expect(outcome.remediation).toBe('unset HTTPS_PROXY   # at the top of run.sh, as the guides do');
    expect(JSON.stringify(outcome)).not.toContain('secret');
  });

  it('warns when the address is computed at run time', async () => {
    const script = edited(filledIn('run_p.sh'), [['local_ip="10.0.0.11"', "local_ip=$(hostname -I | awk '{print $1}')"]]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^HCCL_IF_IP \(run\.sh:17, from local_ip at line 7\) is computed at run time \(\$\(hostname -I/);
  });

  it('fails loopback as HCCL_IF_IP when data parallelism spans nodes', async () => {
    const script = filledIn('run_d1.sh', '127.0.0.1', '10.0.0.12');
    const { outcome } = await runOn(check, a3Node({ interfaces: NODE_INTERFACES }), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('is 127.0.0.1, which other nodes cannot reach (data parallel spans 2 nodes)');
  });

  it('is an error when the interfaces cannot be listed', async () => {
    const { outcome } = await runOn(check, a3Node({ interfaces: { error: 'EACCES' } }), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

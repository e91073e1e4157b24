import { describe, expect, it } from 'vitest';
import check from '../../../checks/net.peer-ports.js';
import type { FakeHostSpec } from '../../helpers/fake-host.js';
import { runHccn } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const CLUSTER = `master: node1
ports: [13389, {port: 6379, name: ray, on: all}]
nodes:
  - {name: node1, host: 10.0.0.1}
  - {name: node2, host: 10.0.0.2}
  - {name: node3, host: 10.0.0.3}
`;

describe('net.peer-ports', () => {
  it('skips without a cluster, and with a cluster that names no ports', async () => {
    expect((await runHccn(check, {})).outcome.status).toBe('skip');
    const none = await runHccn(check, {}, { cluster: CLUSTER.replace(/^ports:.*\n/m, ''), node: 'node2' });
    expect(none.outcome.status).toBe('skip');
    expectRemediation(none.outcome);
  });

  it('a refused connection proves the host reachable before launch: pass', async () => {
    const { outcome } = await runHccn(check, {}, { cluster: CLUSTER, node: 'node2' });
    expect(outcome).toMatchObject({ status: 'pass', message: '3 peer ports reachable (0 listening, 3 refused: host up, nothing listening yet)' });
  });

  it('the master reaches the "all" ports of the others and says it will listen on its own', async () => {
    const { outcome } = await runHccn(check, { tcp: [{ host: '10.0.0.2', port: 6379, ok: true }] }, { cluster: CLUSTER, node: 'node1' });
    expect(outcome.message).toBe('2 peer ports reachable (1 listening, 1 refused: host up, nothing listening yet); this node is the master (13389 will listen here)');
  });

  it('a timeout or no route fails, naming node, address, port and cause', async () => {
    const spec: FakeHostSpec = { tcp: [{ host: '10.0.0.1', port: 13389, ok: false, error: 'no answer within 1000 ms' }, { host: '10.0.0.3', port: 6379, ok: false, error: 'EHOSTUNREACH' }] };
    const { outcome } = await runHccn(check, spec, { cluster: CLUSTER, node: 'node2' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('2 of 3 peer ports not reachable from node2: node1 10.0.0.1:13389: no answer within 1000 ms, node3 10.0.0.3:6379 (ray): EHOSTUNREACH');
    expect(outcome.remediation).toBe("from node2 try \"nc -vz 10.0.0.1 13389\"; open TCP 13389 on node1's firewall or fix the route between the nodes");
  });
});

describe('net.peer-ports in Chinese', () => {
  it('reachable, unreachable and the skip in Chinese; the nc command intact, actual in English', async () => {
    const ok = await runHccn(check, {}, { cluster: CLUSTER, node: 'node2', lang: 'zh' });
    expect(ok.outcome.message).toBe('3 个对端端口可达（0 个在监听，3 个拒绝连接：主机在线，尚无进程监听）');
    const master = await runHccn(check, { tcp: [{ host: '10.0.0.2', port: 6379, ok: true }] }, { cluster: CLUSTER, node: 'node1', lang: 'zh' });
    expect(master.outcome.message).toBe('2 个对端端口可达（1 个在监听，1 个拒绝连接：主机在线，尚无进程监听）；本节点是主节点（13389 将在此监听）');
    const spec: FakeHostSpec = { tcp: [{ host: '10.0.0.1', port: 13389, ok: false, error: 'no answer within 1000 ms' }, { host: '10.0.0.3', port: 6379, ok: false, error: 'EHOSTUNREACH' }] };
    const english = await runHccn(check, spec, { cluster: CLUSTER, node: 'node2' });
    const chinese = await runHccn(check, spec, { cluster: CLUSTER, node: 'node2', lang: 'zh' });
    expect(chinese.outcome.message).toBe('从 node2 出发，3 个对端端口中有 2 个不可达：node1 10.0.0.1:13389：no answer within 1000 ms；node3 10.0.0.3:6379 (ray)：EHOSTUNREACH');
    expectChineseTwin(english.outcome, chinese.outcome, ['"nc -vz 10.0.0.1 13389"']);
    expect((await runHccn(check, {}, { lang: 'zh' })).outcome.message).toBe('没有集群文件：没有需要到达的对端端口');
  });
});

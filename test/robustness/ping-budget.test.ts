import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { parseReport, qprepWith, tmp } from './support.js';

/*
 * A full-mesh plan over a large cluster with a long probe timeout computes a watchdog budget over
 * 2^31 ms, the most a Node timer can wait: unclamped, the timer fired at once, the check said
 * "did not finish within 18430170800 ms" after a few ms, and the pings went on after the
 * report. hccn.peers now has a total budget (profile hccn.peersBudget): once it is spent no
 * ping starts, the pairs not tried are listed, and no ping runs after the report.
 */

interface SimNode {
  bin: string;
  root: string;
  cluster: string;
  log: string;
}

function loggedCalls(node: SimNode): string[] {
  try {
    return readFileSync(node.log, 'utf8').split('\n').filter((line) => / hccn_tool -i \d+ -ping /.test(line));
  } catch {
    return [];
  }
}

describe('a ping plan larger than its budget', () => {
  it('15 nodes full-mesh with a 10 min probe timeout: the check stops pinging at hccn.peersBudget, lists the pairs not tried, and nothing pings after the report', async () => {
    const dir = tmp('mesh');
    const made = await execa(process.execPath, [join(REPO, 'scripts/sim-node.mjs'), '--family', 'a2', '--out', join(dir, 'sim'), '--nodes', '15', '--npu-smi-ms', '0', '--hccn-ms', '0', '--ping-ms', '0']);
    const node = JSON.parse(made.stdout) as SimNode;
    writeFileSync(node.cluster, readFileSync(node.cluster, 'utf8').replace(/^plan: .*$/m, 'plan: full-mesh'));
    const profile = join(dir, 'budget.yaml');
    writeFileSync(profile, 'extends: default\nhccn:\n  peersBudget: 3s\n');

    // 14 peers x 16 x 16 planned pairs x (600 s + busy retries): about 2.2e9 ms, over 2^31
    const run = await qprepWith(node.bin, ['check', '--root', node.root, '--cluster', node.cluster, '--node', 'a2-node1', '--only', 'hccn.peers', '--timeout', '600s', '--profile', profile, '--format', 'json']);
    const pingsAtExit = loggedCalls(node).length;
    const { byId } = await parseReport(run.stdout);
    const peers = byId['hccn.peers']!;
    expect(peers.message).not.toMatch(/did not finish within/);
    expect(peers.status).toBe('fail');
    const total = (peers.evidence as { total: number }).total;
    expect(total).toBe(14 * 8 * 8);
    expect(peers.message).toMatch(new RegExp(`^\\d+ of ${total} pings not tried: the ping budget of 3s \\(profile hccn.peersBudget\\) was spent$`));
    expect(peers.remediation).toContain('raise hccn.peersBudget');
    const untried = (peers.evidence as { skipped: number }).skipped;
    expect(untried).toBeGreaterThan(0);
    expect(pingsAtExit + untried).toBe(total);
    // every pair not tried is named, one line each
    const named = (peers as { details?: string[] }).details?.filter((line) => line.endsWith('not tried: the ping budget of 3s (profile hccn.peersBudget) was spent')) ?? [];
    expect(named).toHaveLength(untried);
    expect(run.exitCode).toBe(1);

    // no ping started after the report: the log stays as it was at exit
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(loggedCalls(node).length).toBe(pingsAtExit);
  });
});

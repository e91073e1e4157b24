import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { httpGet, startServe, type LogLine } from '../helpers/serve.js';
import { loggedCalls } from '../helpers/sim-log.js';

/**
 * The resident agent on a node that serves a model: it never runs npu-smi or hccn_tool while the
 * previous call of the same tool runs, whichever run started it, and never two runs at a time.
 * On the simulated A3 node of the benchmark (bench/lib/sim-node.mjs) whose npu-smi, like its
 * hccn_tool, answers "busy" (and logs it) when called while another call runs; runs cut at their
 * budget in the middle of their calls, runs asked for over HTTP and by SIGHUP while one runs.
 */

const work = mkdtempSync(join(tmpdir(), 'qprep-serve-tools-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface SimNode {
  name: string;
  bin: string;
  root: string;
  cluster: string;
  log: string;
}

describe('qprep serve and the vendor tools', () => {
  it('one call of npu-smi and of hccn_tool at a time across runs cut at their budget, asked for over HTTP and by SIGHUP; one run at a time', async () => {
    const made = await execa(process.execPath, [join(REPO, 'scripts/sim-node.mjs'), ...['--family', 'a3', '--out', join(work, 'a3'), '--npu-smi-ms', '150', '--hccn-ms', '15', '--exclusive-npu-smi']]);
    const sim = JSON.parse(made.stdout) as SimNode;
    // a run takes about 4 s of tool time: a budget of 2 s cuts each one in the middle of its calls
    const agent = await startServe(['--root', sim.root, '--cluster', sim.cluster, '--node', sim.name, '--interval', '3s', '--budget', '2s', '--allow-trigger'], {
      env: { PATH: `${sim.bin}:/usr/bin:/bin` },
      timeoutMs: 120_000,
    });
    try {
      const runs = () => agent.logs.filter((l) => l.event === 'run');
      const untilRuns = async (count: number) => {
        const deadline = Date.now() + 60_000;
        while (runs().length < count) {
          if (Date.now() > deadline) throw new Error(`not ${count} runs within 60 s: ${JSON.stringify(agent.logs).slice(0, 2000)}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const refused: number[] = [];
      for (let round = 1; round <= 4; round++) {
        await untilRuns(round);
        // while the next run goes on: ask for one over HTTP, and one by SIGHUP (it follows the run)
        await new Promise((resolve) => setTimeout(resolve, 500));
        refused.push((await httpGet(`${agent.base}/run`, { method: 'POST' })).status);
        process.kill(agent.pid, 'SIGHUP');
      }
      await untilRuns(6);
      const all = runs() as Array<LogLine & { durationMs: number; time: string; error?: { message: string } }>;
      expect(all.length).toBeGreaterThanOrEqual(5);
      // the budget cut the runs in the middle of their calls
      expect(all.filter((r) => r.error?.message.startsWith('the run exceeded its budget of 2s')).length).toBeGreaterThan(0);
      // one run at a time: each starts after the previous one ended
      const spans = all.map((r) => ({ end: Date.parse(r.time), start: Date.parse(r.time) - r.durationMs }));
      for (let i = 1; i < spans.length; i++) expect(spans[i]!.start, `run ${i + 1}`).toBeGreaterThanOrEqual(spans[i - 1]!.end - 5);
      expect(refused.every((status) => status === 409 || status === 202)).toBe(true);
      // one call of each tool at a time: neither ever answered busy
      const calls = loggedCalls(sim.log);
      expect(calls.filter((c) => c.command.startsWith('npu-smi info -t')).length).toBeGreaterThan(2);
      expect(calls.filter((c) => c.outcome === 'busy')).toEqual([]);
    } finally {
      await agent.stop();
    }
  });
});

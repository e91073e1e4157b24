import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet, startServe, type ServeProcess } from '../helpers/serve.js';
import { hasTool } from '../helpers/tools.js';

/**
 * A real Prometheus server (Debian's prometheus package, as .ci/run installs it) scrapes
 * `qprep serve` on loopback. The test starts it with its own configuration, storage and port,
 * lets it scrape qprep, then asks its HTTP query API what it stored.
 */

const PROMETHEUS = ['prometheus', '--version'] as const;
const available = hasTool(PROMETHEUS, 'prometheus');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

describe.skipIf(!available)('a real Prometheus scraping qprep serve', () => {
  let qprep: ServeProcess;
  let prometheus: ResultPromise | undefined;
  let promBase: string;
  let dir: string;
  let promLog = '';

  async function query(expression: string): Promise<Sample[]> {
    const response = await httpGet(`${promBase}/api/v1/query?query=${encodeURIComponent(expression)}`);
    const body = JSON.parse(response.body) as { status: string; data: { result: Sample[] } };
    expect(body.status).toBe('success');
    return body.data.result;
  }

  /** Prometheus answers once it has scraped; until then the query is empty. */
  async function eventually(expression: string, timeoutMs = 60_000): Promise<Sample[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const result = await query(expression);
        if (result.length > 0) return result;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`Prometheus returned nothing for ${expression} within ${timeoutMs} ms; its log: ${promLog.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  beforeAll(async () => {
    qprep = await startServe(['--snapshot', 'examples/snapshots/a2-healthy.json', '--interval', '2s']);
    dir = mkdtempSync(join(tmpdir(), 'qprep-prometheus-'));
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        'scrape_configs:',
        '  - job_name: qprep',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${qprep.port}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    promBase = `http://127.0.0.1:${port}`;
    prometheus = execa(
      'prometheus',
      [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { reject: false, stdin: 'ignore', buffer: false, cwd: dir },
    );
    prometheus.stderr?.on('data', (chunk: Buffer) => (promLog += chunk.toString()));
  });

  afterAll(async () => {
    if (prometheus) {
      prometheus.kill('SIGTERM');
      const timer = setTimeout(() => prometheus?.kill('SIGKILL'), 10_000);
      await prometheus;
      clearTimeout(timer);
    }
    await qprep?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the target is up and its qprep_ready is 1', async () => {
    const up = await eventually('up{job="qprep"} == 1');
    expect(up[0]!.metric.instance).toBe(`127.0.0.1:${qprep.port}`);
    const ready = await eventually('qprep_ready');
    expect(ready).toHaveLength(1);
    expect(ready[0]!.value[1]).toBe('1');
    expect(ready[0]!.metric).toMatchObject({ job: 'qprep', instance: `127.0.0.1:${qprep.port}` });
  });

  it('stores one series per check and status, and the agent counts its runs', async () => {
    const idle = await eventually('qprep_check_status{id="npu.idle"}');
    expect(Object.fromEntries(idle.map((s) => [s.metric.status, s.value[1]]))).toEqual({ pass: '1', warn: '0', fail: '0', skip: '0', error: '0' });
    const checks = await eventually('count(qprep_check_blocking)');
    const report = JSON.parse((await httpGet(`${qprep.base}/report`)).body) as { checks: unknown[] };
    expect(checks[0]!.value[1]).toBe(String(report.checks.length));
    const runs = await eventually('qprep_runs_total{verdict="ready"}');
    expect(Number(runs[0]!.value[1])).toBeGreaterThanOrEqual(1);
    expect(await eventually('time() - qprep_last_run_timestamp_seconds < 60')).toHaveLength(1);
  });
});

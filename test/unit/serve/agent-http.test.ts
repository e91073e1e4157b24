import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errorDocument } from '../../../src/report/error-document.js';
import { QprepError } from '../../../src/errors.js';
import { spokenError } from '../../../src/i18n/spoken-error.js';
import type { AnyReport } from '../../../src/report/schema.js';
import { Agent } from '../../../src/serve/agent.js';
import { createServeHandler } from '../../../src/serve/http.js';
import { textFor, type Catalogue } from '../../../src/i18n/index.js';
import type { LogFields, LogLevel } from '../../../src/serve/log.js';
import { reportOf, result } from '../../helpers/reports.js';

const READY = reportOf([result({ id: 'npu.idle', status: 'pass' })]);
const NOT_READY = { ...reportOf([result({ id: 'npu.idle', status: 'fail' }), result({ id: 'hccn.link', status: 'fail' })]), runId: '0b0e4c4e-1111-4c59-9a57-0d3f3c8d7a52' };

interface Line {
  level: LogLevel;
  event: string;
  fields: LogFields;
}

/** An agent whose runs answer the given reports one after another, each when the test releases it. */
function scriptedAgent(reports: Array<AnyReport | Error>, lang?: string) {
  const lines: Line[] = [];
  const releases: Array<() => void> = [];
  let index = 0;
  const agent = new Agent({
    // far beyond any test: the schedule never fires, runs start only when asked
    intervalMs: 3_600_000,
    ...(lang ? { lang } : {}),
    logger: { log: (level, event, fields = {}) => lines.push({ level, event, fields }) },
    execute: async () => {
      const next = reports[Math.min(index++, reports.length - 1)]!;
      await new Promise<void>((resolve) => releases.push(resolve));
      if (next instanceof Error) throw next;
      return next;
    },
  });
  const finishedRuns = () => Object.values(agent.runs).reduce((a, b) => a + b, 0);
  /** lets the run going on finish, and waits until the agent has recorded it */
  const release = async () => {
    while (releases.length === 0) await new Promise((r) => setImmediate(r));
    const before = finishedRuns();
    releases.shift()!();
    while (finishedRuns() === before) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  };
  return { agent, lines, release };
}

const agents: Agent[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) agent.stop();
  for (const server of servers.splice(0)) server.close();
});

describe('the agent', () => {
  it('runs one at a time, counts the verdicts and logs each run and each change of state', async () => {
    const { agent, lines, release } = scriptedAgent([READY, NOT_READY, new QprepError('invalid-cluster', 'invalid cluster file c.yaml: nodes: required')]);
    agents.push(agent);
    expect(agent.trigger('start')).toBe(true);
    expect(agent.running).toBe(true);
    expect(agent.trigger('http')).toBe(false);
    await release();
    expect(agent.last?.verdict).toBe('ready');
    expect(agent.trigger('http')).toBe(true);
    await release();
    expect(agent.trigger('reload')).toBe(true);
    await release();
    expect(agent.runs).toEqual({ ready: 1, 'not-ready': 1, 'no-verdict': 1 });
    expect(agent.last?.report).toEqual(errorDocument('invalid-cluster', 'invalid cluster file c.yaml: nodes: required', 'check'));
    expect(lines.map((l) => `${l.level} ${l.event}`)).toEqual(['info run', 'info state', 'warn run', 'warn state', 'error run', 'error state']);
    expect(lines[3]!.fields).toEqual({ from: 'ready', to: 'not-ready', blocking: ['npu.idle', 'hccn.link'], error: undefined });
    expect(lines[2]!.fields).toMatchObject({ trigger: 'http', verdict: 'not-ready', runId: NOT_READY.runId, blocking: ['npu.idle', 'hccn.link'] });
    expect(lines[5]!.fields).toMatchObject({ from: 'not-ready', to: 'no-verdict', error: 'invalid cluster file c.yaml: nodes: required' });
  });

  it('logs no state line when the verdict stays the same', async () => {
    const { agent, lines, release } = scriptedAgent([READY, READY]);
    agents.push(agent);
    agent.trigger('start');
    await release();
    agent.trigger('schedule');
    await release();
    expect(lines.map((l) => l.event)).toEqual(['run', 'state', 'run']);
  });

  it('a run asked for during a run (SIGHUP) follows it; a stopped agent starts none', async () => {
    const { agent, release } = scriptedAgent([READY, NOT_READY]);
    agents.push(agent);
    agent.trigger('start');
    agent.requestRun('reload');
    await release();
    expect(agent.running).toBe(true);
    await release();
    expect(agent.last?.trigger).toBe('reload');
    agent.stop();
    expect(agent.trigger('http')).toBe(false);
  });
});

async function serve(agent: Agent, allowTrigger = true, text?: Catalogue): Promise<string> {
  const server = createServer(createServeHandler(agent, { intervalMs: 3_600_000, allowTrigger, ...(text ? { text } : {}) }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function get(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe('a run that fails', () => {
  it("its error document speaks the agent's language; the code as in English", async () => {
    const failure = () => spokenError('invalid-cluster', (t) => t.inputs.invalidCluster({ file: '/etc/qprep/cluster.yaml', detail: 'nodes: expected array' }));
    for (const [lang, message] of [
      ['zh', '集群文件 /etc/qprep/cluster.yaml 无效：nodes: expected array'],
      ['en', 'invalid cluster /etc/qprep/cluster.yaml: nodes: expected array'],
    ] as const) {
      const { agent, release } = scriptedAgent([failure()], lang);
      agents.push(agent);
      agent.trigger('start');
      await release();
      expect(agent.last?.report).toMatchObject({ ready: false, error: { code: 'invalid-cluster', message } });
    }
  });
});

describe('the HTTP endpoints', () => {
  it('in Chinese: the index and /readyz say it in Chinese; status codes, /healthz and /metrics as in English', async () => {
    const { agent } = scriptedAgent([READY]);
    agents.push(agent);
    const english = await serve(agent);
    const base = await serve(agent, true, textFor('zh'));
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 503, body: '未就绪：首次运行尚未完成\n' });
    const index = (await get(`${base}/`)).body.split('\n');
    expect(index[3]).toBe('  GET  /readyz    最近的报告就绪且未过时时返回 200，否则返回 503；一行说明原因');
    expect((await get(`${english}/`)).body.split('\n').map((line) => line.slice(0, 17))).toEqual(index.map((line) => line.slice(0, 17)));
    // the agent's own series (the process' memory and CPU move between two requests)
    const series = (body: string) => body.split('\n').filter((line) => line.startsWith('qprep_'));
    expect(series((await get(`${base}/metrics`)).body)).toEqual(series((await get(`${english}/metrics`)).body));
  });

  it('in Chinese: every refusal (404, 405, 403, 400, 503) in Chinese, with the same codes, headers, paths and methods as in English', async () => {
    const { agent } = scriptedAgent([READY]);
    agents.push(agent);
    const english = await serve(agent, false);
    const base = await serve(agent, false, textFor('zh'));
    const answers = async (root: string) => [
      await get(`${root}/report`),
      await get(`${root}/nope`),
      await get(`${root}/readyz`, { method: 'DELETE' }),
      await get(`${root}/run`, { method: 'POST' }),
      await get(`${root}/report?format=yaml`),
    ];
    const zh = await answers(base);
    const en = await answers(english);
    expect(zh.map((a) => a.body)).toEqual([
      '还没有报告：首次运行尚未完成\n',
      '未找到：/nope（见 GET /）\n',
      '/readyz 不接受 DELETE 方法；请用 GET 或 HEAD\n',
      'POST /run 未开启：用 --allow-trigger 启动 qprep serve 以允许它\n',
      '未知格式 "yaml"；可用格式：json, junit, prometheus, npd\n',
    ]);
    expect(en.map((a) => a.body)).toEqual([
      'no report yet: the first run has not finished\n',
      'not found: /nope (see GET /)\n',
      'method DELETE not allowed on /readyz; use GET or HEAD\n',
      'POST /run is off: start qprep serve with --allow-trigger to allow it\n',
      'unknown format "yaml"; formats: json, junit, prometheus, npd\n',
    ]);
    expect(zh.map((a) => [a.status, a.headers.get('allow'), a.headers.get('retry-after')])).toEqual(en.map((a) => [a.status, a.headers.get('allow'), a.headers.get('retry-after')]));
  });

  it('before the first run: alive, not ready, no report, metrics say not ready', async () => {
    const { agent } = scriptedAgent([READY]);
    agents.push(agent);
    const base = await serve(agent);
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 503, body: 'not ready: the first run has not finished yet\n' });
    const report = await get(`${base}/report`);
    expect(report.status).toBe(503);
    expect(report.headers.get('retry-after')).toBe('5');
    const metrics = await get(`${base}/metrics`);
    expect(metrics.body).toContain('\nqprep_ready 0\n');
    expect(metrics.body).toContain('qprep_runs_total{verdict="ready"} 0');
    expect(metrics.body).not.toContain('qprep_last_run_timestamp_seconds');
  });

  it('serves the last report in each format with ETag and Last-Modified, and 304 when unchanged', async () => {
    const { agent, release } = scriptedAgent([NOT_READY]);
    agents.push(agent);
    const base = await serve(agent);
    agent.trigger('start');
    await release();
    const json = await get(`${base}/report`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(json.body)).toEqual(NOT_READY);
    const etag = json.headers.get('etag')!;
    expect(etag).toBe(`"${NOT_READY.runId}-json"`);
    expect(new Date(json.headers.get('last-modified')!).getTime()).toBe(Math.floor(agent.last!.finishedAtMs / 1000) * 1000);
    expect((await get(`${base}/report`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await get(`${base}/report`, { headers: { 'If-Modified-Since': json.headers.get('last-modified')! } })).status).toBe(304);
    expect((await get(`${base}/report`, { headers: { 'If-None-Match': '"other"', 'If-Modified-Since': json.headers.get('last-modified')! } })).status).toBe(200);
    const junit = await get(`${base}/report?format=junit`);
    expect(junit.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(junit.body).toMatch(/^<\?xml/);
    expect(junit.headers.get('etag')).toBe(`"${NOT_READY.runId}-junit"`);
    const prom = await get(`${base}/report?format=prometheus`);
    expect(prom.body).toContain('\nqprep_ready 0\n');
    expect(await get(`${base}/report?format=yaml`)).toMatchObject({ status: 400, body: 'unknown format "yaml"; formats: json, junit, prometheus, npd\n' });
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 503 });
    expect((await get(`${base}/readyz`)).body).toMatch(/^not ready: 2 blocking checks: npu\.idle, hccn\.link \(run /);
  });

  it('every one-line answer shows control characters as \\xNN: the reload error of /readyz and /agentz, an unknown ?format=', async () => {
    const { agent, release } = scriptedAgent([new QprepError('invalid-cluster', 'invalid cluster file c.yaml: nodes: "n\u001b]0;x\u0007"')]);
    agents.push(agent);
    const base = await serve(agent);
    agent.trigger('start');
    await release();
    agent.reloadError = 'invalid profile p.yaml: "k\u001b[2J\u009b\u202e"';
    expect((await get(`${base}/readyz`)).body).toBe(
      'no verdict: invalid cluster file c.yaml: nodes: "n\\x1b]0;x\\x07" (0s ago); profile reload failed, still using the previous profile: invalid profile p.yaml: "k\\x1b[2J\\x9b\\u202e"\n',
    );
    expect((await get(`${base}/agentz`)).body).toBe('agent misconfigured: its last run had no verdict (invalid-cluster): invalid cluster file c.yaml: nodes: "n\\x1b]0;x\\x07"\n');
    expect(await get(`${base}/report?format=${encodeURIComponent('json\u001b[31m\r\n')}`)).toMatchObject({
      status: 400,
      body: 'unknown format "json\\x1b[31m\\x0d\\x0a"; formats: json, junit, prometheus, npd\n',
    });
  });

  it('renders every document of a run when it finishes, and serves them as rendered', async () => {
    const { agent, release } = scriptedAgent([NOT_READY]);
    agents.push(agent);
    const base = await serve(agent);
    agent.trigger('start');
    await release();
    const { documents } = agent.last!;
    expect(JSON.parse(documents.report.json)).toEqual(NOT_READY);
    expect(documents.report.junit).toMatch(/^<\?xml/);
    expect(documents.report.prometheus).toContain('\nqprep_ready 0\n');
    expect(documents.metrics).toContain('\nqprep_last_run_timestamp_seconds ');
    expect(documents.metrics).not.toContain('qprep_runs_total');
    for (const format of ['json', 'junit', 'prometheus'] as const) {
      expect((await get(`${base}/report?format=${format}`)).body).toBe(documents.report[format]);
    }
    const metrics = (await get(`${base}/metrics`)).body;
    expect(metrics.startsWith(documents.metrics)).toBe(true);
    expect(metrics.slice(documents.metrics.length)).toMatch(/^# HELP qprep_runs_total /);
    expect(metrics).toContain('\nqprep_runs_total{verdict="not-ready"} 1\n');
  });

  it('a report that cannot be rendered makes a run without a verdict, and the agent goes on', async () => {
    const unrenderable = { ...READY, checks: null } as unknown as AnyReport;
    const { agent, lines, release } = scriptedAgent([unrenderable, READY]);
    agents.push(agent);
    const base = await serve(agent);
    agent.trigger('start');
    await release();
    expect(agent.last!.verdict).toBe('no-verdict');
    expect(agent.last!.report.error?.code).toBe('internal');
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 503 });
    expect(JSON.parse((await get(`${base}/report`)).body)).toMatchObject({ ready: false, error: { code: 'internal' } });
    expect(lines.find((l) => l.event === 'run')).toMatchObject({ level: 'error', fields: { verdict: 'no-verdict' } });
    agent.trigger('http');
    await release();
    expect(agent.last!.verdict).toBe('ready');
    expect(agent.runs).toEqual({ ready: 1, 'not-ready': 0, 'no-verdict': 1 });
  });

  it('a format named like a property of every object is an unknown format', async () => {
    const { agent, release } = scriptedAgent([READY]);
    agents.push(agent);
    const base = await serve(agent);
    agent.trigger('start');
    await release();
    for (const format of ['constructor', '__proto__', 'toString']) {
      expect(await get(`${base}/report?format=${format}`)).toMatchObject({ status: 400, body: `unknown format "${format}"; formats: json, junit, prometheus, npd\n` });
    }
    expect((await get(`${base}/healthz`)).status).toBe(200);
  });

  it('POST /run: 202, then 409 while the run goes on; 403 without --allow-trigger', async () => {
    const { agent, release } = scriptedAgent([READY, READY]);
    agents.push(agent);
    const base = await serve(agent);
    agent.trigger('start');
    await release();
    expect(await get(`${base}/run`, { method: 'POST' })).toMatchObject({ status: 202, body: 'run started; GET /report when it has finished\n' });
    expect(await get(`${base}/run`, { method: 'POST' })).toMatchObject({ status: 409 });
    await release();
    expect(agent.last?.trigger).toBe('http');
    const closed = await serve(agent, false);
    expect(await get(`${closed}/run`, { method: 'POST' })).toMatchObject({ status: 403, body: 'POST /run is off: start qprep serve with --allow-trigger to allow it\n' });
    expect(agent.running).toBe(false);
  });

  it('unknown paths 404, wrong methods 405 with Allow, HEAD without a body', async () => {
    const { agent } = scriptedAgent([READY]);
    agents.push(agent);
    const base = await serve(agent);
    expect((await get(`${base}/nope`)).status).toBe(404);
    const wrong = await get(`${base}/run`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await get(`${base}/readyz`, { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD');
    const head = await new Promise<{ status: number; body: string; length: string | undefined }>((resolve) => {
      request(`${base}/healthz`, { method: 'HEAD' }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, length: res.headers['content-length'] }));
      }).end();
    });
    expect(head).toEqual({ status: 200, body: '', length: '3' });
    expect((await get(`${base}/`)).body).toContain('POST /run');
  });

  it('a request target that is no URL gets 400, and the server goes on', async () => {
    const { agent } = scriptedAgent([READY]);
    agents.push(agent);
    const base = await serve(agent);
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('bad request: the request target is not a URL path');
    expect((await get(`${base}/healthz`)).status).toBe(200);
  });
});

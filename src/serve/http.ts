import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatAgentMetrics, formatRunMetrics, type ServeMetrics } from '../report/serve-metrics.js';
import type { AgentView } from './agent.js';
import { FORMATS, SERVED_FORMATS, type ServedFormat } from '../report/formats.js';
import { agentHealth, readiness } from './readiness.js';
import { hostAllowed, type HostPolicy } from './hosts.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { escapeControls } from '../util/text.js';

/**
 * The HTTP side of `qprep serve`: answers from the agent's last report, never runs a check
 * itself (only POST /run asks the agent for a run, when allowed). Every answer is computed from
 * memory, so a probe or a scraper polling every second costs no host access.
 */

export interface HandlerOptions {
  intervalMs: number;
  allowTrigger: boolean;
  now?: () => number;
  /** the catalogue of the /readyz line; English when not given */
  text?: Catalogue;
  /** the Host headers answered (DNS rebinding); every one when not given */
  hosts?: HostPolicy;
  /** a request refused for its Host header: for the log */
  onRefusedHost?: (host: string) => void;
}

const TEXT = 'text/plain; charset=utf-8';
/** GET /metrics: the agent's own metrics, in the format Prometheus scrapes */
const PROMETHEUS = FORMATS.prometheus.mediaType;
/** /metrics before the first run has finished: the node is not judged yet */
const NO_RUN_METRICS = formatRunMetrics(undefined);

const ROUTES: Record<string, readonly string[]> = {
  '/': ['GET', 'HEAD'],
  '/healthz': ['GET', 'HEAD'],
  '/agentz': ['GET', 'HEAD'],
  '/readyz': ['GET', 'HEAD'],
  '/report': ['GET', 'HEAD'],
  '/metrics': ['GET', 'HEAD'],
  '/run': ['POST'],
};

/** GET /: the routes, one line each, in the run's language (the paths and codes as they are) */
function indexPage(text: Catalogue): string {
  const t = text.commands.serve.index;
  return ['qprep serve', `  GET  /healthz   ${t.healthz}`, `  GET  /agentz    ${t.agentz}`, `  GET  /readyz    ${t.readyz}`, `  GET  /report    ${t.report}`, `  GET  /metrics   ${t.metrics}`, `  POST /run       ${t.run}`, ''].join('\n');
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

/**
 * A one-line answer. Its text may quote anything (a profile's error, the format asked for, a
 * check's message): its control characters are shown as \xNN, as the human report shows them,
 * so that a terminal running curl, or a log that keeps the body, cannot be driven by it.
 */
function line(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  send(res, status, TEXT, `${escapeControls(text)}\n`, headers);
}

export function createServeHandler(agent: AgentView, options: HandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const now = options.now ?? Date.now;
  return (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://qprep.invalid');
    } catch {
      // a request target no URL parser accepts ("http://[") must not end the agent
      return line(res, 400, (options.text ?? en).commands.serve.http.badTarget);
    }
    const host = req.headers.host;
    if (options.hosts && !hostAllowed(options.hosts, host)) {
      options.onRefusedHost?.(host ?? '');
      // RFC 9110 §7.4: a request for an origin this server is not configured for is answered 421
      return line(res, 421, (options.text ?? en).commands.serve.misdirected({ host: host ?? '' }));
    }
    const words = (options.text ?? en).commands.serve.http;
    const methods = ROUTES[url.pathname];
    if (!methods) return line(res, 404, words.notFound({ path: url.pathname }));
    const method = req.method ?? 'GET';
    if (!methods.includes(method)) return line(res, 405, words.methodNotAllowed({ method, path: url.pathname, allowed: methods }), { Allow: methods.join(', ') });
    switch (url.pathname) {
      case '/':
        return send(res, 200, TEXT, indexPage(options.text ?? en));
      case '/healthz':
        return line(res, 200, 'ok');
      case '/agentz': {
        const health = agentHealth(agent.last, now(), options.intervalMs, agent.publishError, options.text);
        return line(res, health.ready ? 200 : 503, health.line);
      }
      case '/readyz': {
        const verdict = readiness(agent.last, now(), options.intervalMs, agent.reloadError, options.text);
        return line(res, verdict.ready ? 200 : 503, verdict.line);
      }
      case '/metrics':
        return send(res, 200, PROMETHEUS, metricsText(agent));
      case '/report':
        return serveReport(agent, url, req, res, words);
      case '/run':
        if (!options.allowTrigger) return line(res, 403, words.triggerOff);
        if (!agent.trigger('http')) return line(res, 409, words.runGoing);
        return line(res, 202, words.runStarted);
    }
  };
}

function metricsText(agent: AgentView): string {
  const runPart = agent.last?.documents.metrics ?? NO_RUN_METRICS;
  return runPart + formatAgentMetrics({
    runs: agent.runs,
    running: agent.running,
    reloadFailed: agent.reloadError !== undefined,
    process: processFigures(),
  });
}

const START_TIME_SECONDS = Math.round(Date.now() / 1000 - process.uptime());

function processFigures(): NonNullable<ServeMetrics['process']> {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return { residentBytes: memory.rss, heapUsedBytes: memory.heapUsed, cpuSeconds: Math.round((cpu.user + cpu.system) / 1000) / 1000, startTimeSeconds: START_TIME_SECONDS };
}

function serveReport(agent: AgentView, url: URL, req: IncomingMessage, res: ServerResponse, words: Catalogue['commands']['serve']['http']): void {
  const requested = url.searchParams.get('format') ?? 'json';
  if (!isServedFormat(requested)) return line(res, 400, words.unknownFormat({ format: requested, formats: SERVED_FORMATS.join(', ') }));
  const format = requested;
  const { last } = agent;
  if (!last) return line(res, 503, words.noReportYet, { 'Retry-After': '5' });
  const etag = `"${last.key}-${format}"`;
  const lastModified = new Date(last.finishedAtMs).toUTCString();
  const headers = { ETag: etag, 'Last-Modified': lastModified, 'Cache-Control': 'no-cache' };
  if (notModified(req, etag, last.finishedAtMs)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  send(res, 200, FORMATS[format].mediaType, last.documents.report[format], headers);
}

/** If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2). */
function notModified(req: IncomingMessage, etag: string, finishedAtMs: number): boolean {
  const match = req.headers['if-none-match'];
  if (match !== undefined) return match.split(',').some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === '*');
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds
  return Number.isFinite(sinceMs) && Math.floor(finishedAtMs / 1000) * 1000 <= sinceMs;
}

function isServedFormat(format: string): format is ServedFormat {
  return (SERVED_FORMATS as readonly string[]).includes(format);
}

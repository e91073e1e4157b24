import { execa, execaSync } from 'execa';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ACCOUNT_DIR } from '../../src/host/kube-api.js';
import { BIN, REPO } from '../helpers/cli.js';
import { hasTool } from '../helpers/tools.js';

/**
 * qprep serve --annotate against a local HTTPS server that checks each request as the API server
 * would: the method and path (PATCH /api/v1/nodes/NODE), the content type of a JSON merge patch,
 * the bearer token of the ServiceAccount's projected token file (read again at every request:
 * the kubelet rotates it), the body's shape; and whose certificate is signed by the CA of the
 * ServiceAccount directory. The built CLI runs in a private mount namespace where a temporary
 * directory is bound at the ServiceAccount path a pod has, so nothing of this machine is touched.
 */

function namespaceProblem(): string | undefined {
  if (!hasTool(['unshare', '--version'], 'util-linux') || !hasTool(['openssl', 'version'], 'openssl')) return 'unshare or openssl is missing';
  const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']);
  return probe.status === 0 ? undefined : `unshare --mount fails here (${String(probe.stderr).trim() || `exit ${probe.status}`}): no CAP_SYS_ADMIN`;
}
const skip = namespaceProblem();
if (skip) console.log(`serve --annotate: skipped: ${skip}`);

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: { metadata: { annotations: Record<string, string | null> } };
}

/** A CA and a server certificate for 127.0.0.1 signed by it (openssl). */
function certificates(dir: string): { ca: string; key: string; cert: string; otherCa: string } {
  const ssl = (args: string[]) => execaSync('openssl', args, { cwd: dir });
  ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=test-cluster-ca']);
  ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=kube-apiserver']);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  ssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext']);
  ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.crt', '-days', '2', '-subj', '/CN=another-ca']);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { ca: read('ca.crt'), key: read('server.key'), cert: read('server.crt'), otherCa: read('other.crt') };
}

describe.skipIf(skip !== undefined)('qprep serve --annotate: the PATCH of its own node', () => {
  const work = mkdtempSync(join(tmpdir(), 'qprep-annotate-'));
  const account = join(work, 'serviceaccount');
  let server: Server;
  let port = 0;
  let pems: ReturnType<typeof certificates>;
  const seen: Seen[] = [];
  let answer = { status: 200, body: '{}' };

  beforeAll(async () => {
    execaSync('mkdir', ['-p', account]);
    pems = certificates(work);
    writeFileSync(join(account, 'ca.crt'), pems.ca);
    writeFileSync(join(account, 'token'), 'token-one\n');
    writeFileSync(join(account, 'namespace'), 'qprep');
    server = createServer({ key: pems.key, cert: pems.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as Seen['body'];
        seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], authorization: req.headers.authorization, body });
        // as the API server: a merge patch of a node, with a token it knows
        const expected = `Bearer ${readFileSync(join(account, 'token'), 'utf8').trim()}`;
        const status = req.headers.authorization !== expected ? 401 : req.headers['content-type'] !== 'application/merge-patch+json' ? 415 : answer.status;
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(status === 401 ? '{"kind":"Status","message":"Unauthorized"}' : answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The built CLI's serve inside a mount namespace with `account` at the ServiceAccount path. */
  function serveInPod(args: string[]) {
    const script = `mount -t tmpfs tmpfs /run && mkdir -p ${SERVICE_ACCOUNT_DIR.replace(/^\/var/, '')} && mount --bind "$1" ${SERVICE_ACCOUNT_DIR.replace(/^\/var/, '')} && shift && exec "$@"`;
    const child = execa('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', account, process.execPath, BIN, 'serve', '--listen', '127.0.0.1:0', ...args], {
      reject: false,
      cwd: REPO,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(port) },
      buffer: false,
    });
    const logs: Array<Record<string, unknown>> = [];
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
    });
    const waitFor = async (match: (l: Record<string, unknown>) => boolean, after = 0) => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const found = logs.slice(after).find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no such log line: ${JSON.stringify(logs)}`);
    };
    return { child, logs, waitFor };
  }

  it('patches the failing checks, the NPU error codes and the reason as a merge patch with the token and the CA of the ServiceAccount, once per change', async () => {
    const agent = serveInPod(['--snapshot', 'examples/snapshots/a2-broken.json', '--interval', '1m', '--allow-trigger', '--annotate', 'a2-node7']);
    try {
      const listening = await agent.waitFor((l) => l.event === 'listening');
      expect(listening).toMatchObject({ annotate: 'a2-node7' });
      await agent.waitFor((l) => l.event === 'run');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ method: 'PATCH', url: '/api/v1/nodes/a2-node7?fieldManager=qprep', contentType: 'application/merge-patch+json', authorization: 'Bearer token-one' });
      expect(seen[0]!.body).toEqual({
        metadata: {
          annotations: {
            'qprep.io/verdict': 'not-ready',
            'qprep.io/failing-checks': 'npu.driver-files,npu.health,npu.ecc,npu.idle',
            'qprep.io/error-codes': 'npu5:80E01801',
            'qprep.io/action': 'isolate-npu',
            'qprep.io/reason': expect.stringMatching(/^NOT READY: npu\.driver-files: /),
          },
        },
      });
      const base = `http://127.0.0.1:${String(listening.port)}`;
      expect((await fetch(`${base}/agentz`)).status).toBe(200);

      // the same verdict again: the node is not written again
      const mark = agent.logs.length;
      expect((await fetch(`${base}/run`, { method: 'POST' })).status).toBe(202);
      await agent.waitFor((l) => l.event === 'run', mark);
      expect(seen).toHaveLength(1);

      agent.child.kill('SIGTERM');
      await agent.child;
    } finally {
      agent.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a refused patch makes /agentz 503 with the API server\'s message; the token is read again for every request', async () => {
    seen.length = 0;
    answer = { status: 403, body: '{"kind":"Status","message":"nodes \\"a2-node1\\" is forbidden: User \\"system:serviceaccount:qprep:qprep\\" cannot patch resource \\"nodes\\""}' };
    writeFileSync(join(account, 'token'), 'token-two\n');
    const agent = serveInPod(['--snapshot', 'examples/snapshots/a2-healthy.json', '--interval', '1m', '--allow-trigger', '--annotate', 'a2-node1']);
    try {
      const listening = await agent.waitFor((l) => l.event === 'listening');
      const failed = await agent.waitFor((l) => l.event === 'publish-failed');
      expect(failed.error).toBe(
        'cannot patch node a2-node1: the ServiceAccount may not patch node a2-node1 (give it the ClusterRole of examples/kubernetes/qprep-rbac.yaml): nodes "a2-node1" is forbidden: User "system:serviceaccount:qprep:qprep" cannot patch resource "nodes"',
      );
      expect(seen[0]).toMatchObject({ authorization: 'Bearer token-two', body: { metadata: { annotations: { 'qprep.io/verdict': 'ready', 'qprep.io/failing-checks': null, 'qprep.io/error-codes': null } } } });
      const base = `http://127.0.0.1:${String(listening.port)}`;
      const health = await fetch(`${base}/agentz`);
      expect(health.status).toBe(503);
      expect(await health.text()).toMatch(/^agent cannot publish the verdict: cannot patch node a2-node1: the ServiceAccount may not patch/);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);

      // allowed again, with a rotated token: the failed patch is made again at the next run
      answer = { status: 200, body: '{}' };
      writeFileSync(join(account, 'token'), 'token-three\n');
      const mark = agent.logs.length;
      expect((await fetch(`${base}/run`, { method: 'POST' })).status).toBe(202);
      await agent.waitFor((l) => l.event === 'publish-recovered', mark);
      expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer token-three' });
      expect((await fetch(`${base}/agentz`)).status).toBe(200);
    } finally {
      agent.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a server whose certificate the ServiceAccount CA did not sign is refused', async () => {
    seen.length = 0;
    writeFileSync(join(account, 'ca.crt'), pems.otherCa);
    const agent = serveInPod(['--snapshot', 'examples/snapshots/a2-healthy.json', '--interval', '1m', '--annotate', 'a2-node1']);
    try {
      const failed = await agent.waitFor((l) => l.event === 'publish-failed');
      expect(failed.error).toMatch(new RegExp(`^cannot patch node a2-node1 at https://127\\.0\\.0\\.1:${port}: (UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY): `));
      expect(seen).toEqual([]);
    } finally {
      writeFileSync(join(account, 'ca.crt'), pems.ca);
      agent.child.kill('SIGKILL');
    }
  }, 120_000);
});

import { spokenError } from '../i18n/spoken-error.js';
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { QprepError } from '../errors.js';

/**
 * The one call qprep makes to a Kubernetes API server: a JSON merge patch of its own node's
 * annotations, as a pod's ServiceAccount, the way client-go's in-cluster configuration reaches
 * the API server: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, the projected
 * token and the cluster's CA from the ServiceAccount directory. The token is read again for
 * every request: the kubelet rotates the projected token (about hourly), and a token read
 * once at start would expire under a long-running agent.
 */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const FIELD_MANAGER = 'qprep';
const REQUEST_TIMEOUT_MS = 10_000;
/** An API server's answer is small: a Node object, or a Status saying why not. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface KubeApiConfig {
  /** https://host:port */
  server: string;
  tokenFile: string;
  caFile: string;
  timeoutMs?: number;
}

/** The in-cluster configuration of a pod; a usage error naming what is missing outside one. */
export function inClusterConfig(env: Readonly<Record<string, string | undefined>>, serviceAccountDir = SERVICE_ACCOUNT_DIR): KubeApiConfig {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw spokenError('usage', (t) => t.usage.annotateOutsidePod);
  }
  return { server: `https://${isIP(host) === 6 ? `[${host}]` : host}:${port}`, tokenFile: `${serviceAccountDir}/token`, caFile: `${serviceAccountDir}/ca.crt` };
}

async function readCredential(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new QprepError('output', `cannot read the ServiceAccount ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (is the ServiceAccount token mounted? automountServiceAccountToken must not be false)`);
  }
}

/** What the API server said, in one line: its Status message when it sent one. */
function answerProblem(status: number, body: string, node: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = `: ${parsed.message}`;
  } catch {
    message = body.trim() ? `: ${body.trim().slice(0, 200)}` : '';
  }
  const why =
    status === 401
      ? 'the API server refused the ServiceAccount token'
      : status === 403
        ? `the ServiceAccount may not patch node ${node} (give it the ClusterRole of examples/kubernetes/qprep-rbac.yaml)`
        : status === 404
          ? `no node named ${node} (give --annotate the pod's node: $(NODE_NAME) from spec.nodeName)`
          : `the API server answered ${status}`;
  return `${why}${message}`;
}

/**
 * PATCH /api/v1/nodes/NODE with `{"metadata":{"annotations":{...}}}` as
 * application/merge-patch+json (RFC 7386: a null removes an annotation). Throws a QprepError
 * with one line saying why when the server does not answer 200.
 */
export async function patchNodeAnnotations(config: KubeApiConfig, node: string, annotations: Readonly<Record<string, string | null>>): Promise<void> {
  const [token, ca] = await Promise.all([readCredential(config.tokenFile, 'token'), readCredential(config.caFile, 'CA')]);
  const url = new URL(`/api/v1/nodes/${encodeURIComponent(node)}`, config.server);
  url.searchParams.set('fieldManager', FIELD_MANAGER);
  const body = JSON.stringify({ metadata: { annotations } });
  const timeoutMs = config.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'PATCH',
        ca,
        timeout: timeoutMs,
        headers: {
          Authorization: `Bearer ${token.trim()}`,
          'Content-Type': 'application/merge-patch+json',
          Accept: 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': 'qprep',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`the answer is over ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    throw new QprepError('output', `cannot patch node ${node} at ${config.server}: ${code ? `${code}: ` : ''}${(error as Error).message}`);
  });
  if (status !== 200) throw new QprepError('output', `cannot patch node ${node}: ${answerProblem(status, text, node)}`);
}

import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { redactEnvValue } from '../src/util/redact.js';

const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'FTP_PROXY', 'ALL_PROXY'];
const NO_PROXY_VARIABLES = ['no_proxy', 'NO_PROXY'];
const LOCAL_NAMES = ['localhost', '127.0.0.1'];

export default defineCheck({
  id: 'net.proxy',
  title: 'HTTP proxy variables',
  category: 'network',
  level: 'recommended',
  why:
    'With http_proxy/https_proxy set, the PD proxy server, the benchmarks and the Python HTTP clients send requests ' +
    'for other nodes and for localhost to the proxy, which answers 503 or hangs (httpx also ignores CIDR entries in ' +
    'no_proxy). The vllm-ascend launch scripts start with "unset http_proxy https_proxy ftp_proxy" for that reason.',
  reads: [...PROXY_VARIABLES, ...NO_PROXY_VARIABLES],
  fix: 'unset the proxy variables in the launch script, or list localhost, 127.0.0.1 and every node address in no_proxy.',
  async run(ctx) {
    const env = ctx.host.env();
    const set = PROXY_VARIABLES.filter((name) => (env[name] ?? '') !== '');
    const noProxy = NO_PROXY_VARIABLES.flatMap((name) => (env[name] ?? '').split(',')).map((v) => v.trim()).filter(Boolean);
    const shown = Object.fromEntries([...set, ...NO_PROXY_VARIABLES.filter((n) => env[n] !== undefined)].map((name) => [name, redactEnvValue(name, env[name]!)]));
    if (set.length === 0) return pass('no proxy variable is set', { evidence: { variables: shown } });
    const missingLocal = LOCAL_NAMES.filter((name) => !noProxy.includes(name));
    const values = set.map((name) => `${name}=${redactEnvValue(name, env[name]!)}`).join(', ');
    const coverage = missingLocal.length === 0 ? 'no_proxy covers localhost' : `no_proxy lacks ${missingLocal.join(', ')}`;
    return warn(`proxy variables are set (${values}); ${coverage}`, {
      expected: 'no proxy variables in the serving environment',
      actual: set.join(', '),
      remediation: `unset ${set.join(' ')} in the launch script (the deployment guides do), or export no_proxy=localhost,127.0.0.1,<every node address>`,
      evidence: { variables: shown, noProxy },
    });
  },
});

import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { redactEnvValue } from '../src/util/redact.js';

const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'FTP_PROXY', 'ALL_PROXY'];
const NO_PROXY_VARIABLES = ['no_proxy', 'NO_PROXY'];
const LOCAL_NAMES = ['localhost', '127.0.0.1'];

// title, why, fix and every message: src/i18n/*/checks/net.ts (reads: the variable names, the same in every language)
export default defineCheck({
  id: 'net.proxy',
  category: 'network',
  order: 10,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['net.proxy'];
    const env = ctx.host.env();
    const set = PROXY_VARIABLES.filter((name) => (env[name] ?? '') !== '');
    const noProxy = NO_PROXY_VARIABLES.flatMap((name) => (env[name] ?? '').split(',')).map((v) => v.trim()).filter(Boolean);
    const shown = Object.fromEntries([...set, ...NO_PROXY_VARIABLES.filter((n) => env[n] !== undefined)].map((name) => [name, redactEnvValue(name, env[name]!)]));
    if (set.length === 0) return pass(t.none, { evidence: { variables: shown } });
    const missingLocal = LOCAL_NAMES.filter((name) => !noProxy.includes(name));
    const values = set.map((name) => `${name}=${redactEnvValue(name, env[name]!)}`).join(', ');
    return warn(t.set({ values, missingLocal: missingLocal.length === 0 ? null : missingLocal.join(', ') }), {
      expected: 'no proxy variables in the serving environment',
      actual: set.join(', '),
      remediation: t.unsetFix({ variables: set.join(' ') }),
      evidence: { variables: shown, noProxy },
    });
  },
});

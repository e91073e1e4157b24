import { execaSync } from 'execa';

/**
 * An external program some tests need (a real validator or parser from Debian). `.ci/run`
 * installs them; on a developer machine without one, the tests that need it are skipped and
 * say why. In CI (CI set) a missing tool fails the test file instead of skipping silently.
 */
export function hasTool(argv: readonly string[], debianPackage: string): boolean {
  const result = execaSync(argv[0]!, argv.slice(1), { reject: false, stdin: 'ignore' });
  if (result.exitCode === 0) return true;
  const reason = `"${argv.join(' ')}" is not available: install Debian's ${debianPackage} (.ci/run does)`;
  if (process.env.CI) throw new Error(reason);
  console.warn(`skipping the tests that need it: ${reason}`);
  return false;
}

export const XMLLINT = ['xmllint', '--version'] as const;
export const PROMTOOL = ['promtool', '--version'] as const;
/** Debian's interpreter, not one of a version manager: the parser is the Debian package's. */
export const PYTHON_PROMETHEUS_CLIENT = ['/usr/bin/python3', '-c', 'import prometheus_client.parser'] as const;
/** Debian's ansible-core: the Ansible role and playbooks of examples/ansible run with it (in a UTF-8 locale, which it requires). */
export const ANSIBLE_PLAYBOOK = ['env', 'LC_ALL=C.UTF-8', 'ansible-playbook', '--version'] as const;

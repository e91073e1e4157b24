/**
 * The interface selectors of the launch environment (reference §5.5). HCCL_SOCKET_IFNAME takes
 * HCCL's syntax: a comma-separated list of name prefixes (`eth,enp`), `^` before the list to
 * exclude them instead (`^docker,lo`), `=` for exact names (`=eth0`), both for exact exclusion
 * (`^=docker0`). GLOO_SOCKET_IFNAME is a comma-separated list of exact names (Gloo opens one
 * device per name) and TP_SOCKET_IFNAME one exact name.
 */

export type IfnameSelector =
  | { ok: true; syntax: 'hccl' | 'list' | 'single'; exclude: boolean; exact: boolean; names: string[] }
  | { ok: false; reason: string };

const NAME = /^[A-Za-z0-9_.:@-]{1,15}$/;

export type IfnameVariable = 'HCCL_SOCKET_IFNAME' | 'GLOO_SOCKET_IFNAME' | 'TP_SOCKET_IFNAME';

/** Parses one variable's value; never throws. */
export function parseIfnameSelector(variable: IfnameVariable, value: string): IfnameSelector {
  let text = value.trim();
  if (text === '') return { ok: false, reason: 'is empty' };
  if (text.length > 1024) return { ok: false, reason: 'is longer than 1024 characters' };
  let exclude = false;
  let exact = variable !== 'HCCL_SOCKET_IFNAME';
  if (variable === 'HCCL_SOCKET_IFNAME') {
    if (text.startsWith('^')) {
      exclude = true;
      text = text.slice(1);
    }
    if (text.startsWith('=')) {
      exact = true;
      text = text.slice(1);
    }
  }
  const names = text.split(',').map((n) => n.trim());
  const bad = names.find((n) => !NAME.test(n));
  if (bad !== undefined) return { ok: false, reason: `"${bad.slice(0, 40)}" is not an interface name${variable === 'HCCL_SOCKET_IFNAME' ? ' (syntax: eth,enp or ^eth or =eth0)' : ''}` };
  if (variable === 'TP_SOCKET_IFNAME' && names.length > 1) return { ok: false, reason: 'names several interfaces; TP_SOCKET_IFNAME takes one' };
  return { ok: true, syntax: variable === 'HCCL_SOCKET_IFNAME' ? 'hccl' : variable === 'GLOO_SOCKET_IFNAME' ? 'list' : 'single', exclude, exact, names };
}

/** Whether the selector lets this interface be used. */
export function selectorAllows(selector: Extract<IfnameSelector, { ok: true }>, name: string): boolean {
  const hit = selector.names.some((n) => (selector.exact ? name === n : name.startsWith(n)));
  return selector.exclude ? !hit : hit;
}

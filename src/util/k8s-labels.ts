/**
 * Kubernetes' syntax of label keys and values, as the documentation states it
 * (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set):
 *
 * - a key is an optional prefix and a name, separated by a slash;
 * - the name is required, at most 63 characters, beginning and ending with an alphanumeric
 *   character ([a-z0-9A-Z]), with dashes, underscores, dots and alphanumerics between;
 * - the prefix, when given, is a DNS subdomain: DNS labels (RFC 1123: lower-case alphanumerics
 *   and dashes, beginning and ending with an alphanumeric, at most 63 characters each)
 *   separated by dots, at most 253 characters in all;
 * - the kubernetes.io/ and k8s.io/ prefixes (and their subdomains) are reserved for
 *   Kubernetes' own components;
 * - a value is at most 63 characters and either empty or, like a name, begins and ends with an
 *   alphanumeric character with dashes, underscores, dots and alphanumerics between.
 *
 * Written from those rules (no Kubernetes library is a dependency); every label qprep writes
 * passes them, and the tests hold the rules to the documentation's own examples.
 */

const NAME_MAX = 63;
const PREFIX_MAX = 253;
const VALUE_MAX = 63;
const NAME = /^[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/;
const RESERVED = /(?:^|\.)(?:kubernetes\.io|k8s\.io)$/;

/** Why `prefix` is not a DNS subdomain; undefined when it is. */
export function dnsSubdomainProblem(prefix: string): string | undefined {
  if (prefix.length === 0) return 'the prefix is empty';
  if (prefix.length > PREFIX_MAX) return `the prefix is ${prefix.length} characters, over ${PREFIX_MAX}`;
  const bad = prefix.split('.').find((label) => label.length > NAME_MAX || !DNS_LABEL.test(label));
  return bad === undefined ? undefined : `the prefix's DNS label "${bad}" is not lower-case alphanumerics and dashes, beginning and ending with an alphanumeric, of at most ${NAME_MAX}`;
}

/** Why `key` is not a label key (prefix/name); undefined when it is. `reservedAllowed` for reading keys Kubernetes itself wrote. */
export function labelKeyProblem(key: string, options: { reservedAllowed?: boolean } = {}): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (prefix !== undefined) {
    const problem = dnsSubdomainProblem(prefix);
    if (problem) return problem;
    if (!options.reservedAllowed && RESERVED.test(prefix)) return `the prefix ${prefix} is reserved for Kubernetes' own components`;
  }
  if (name.length === 0) return 'the name is empty';
  if (name.length > NAME_MAX) return `the name is ${name.length} characters, over ${NAME_MAX}`;
  if (!NAME.test(name)) return 'the name is not alphanumerics, -, _ and ., beginning and ending with an alphanumeric';
  return undefined;
}

/** Why `value` is not a label value; undefined when it is (the empty value is one). */
export function labelValueProblem(value: string): string | undefined {
  if (value.length === 0) return undefined;
  if (value.length > VALUE_MAX) return `the value is ${value.length} characters, over ${VALUE_MAX}`;
  if (!NAME.test(value)) return 'the value is not alphanumerics, -, _ and ., beginning and ending with an alphanumeric';
  return undefined;
}

/**
 * A version or a name a tool printed, as a label value: characters outside the label set
 * become "_", the ends are trimmed to alphanumerics, and it is cut to 63 characters. Undefined
 * when nothing is left: no label then, rather than a wrong one.
 */
export function toLabelValue(text: string): string | undefined {
  const trim = (s: string) => s.replace(/^[^A-Za-z0-9]+/, '').replace(/[^A-Za-z0-9]+$/, '');
  const value = trim(trim(text.replace(/[^-A-Za-z0-9_.]/g, '_')).slice(0, VALUE_MAX));
  return value.length > 0 ? value : undefined;
}

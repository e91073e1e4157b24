import { describe, expect, it } from 'vitest';
import { hostAllowed, hostPolicy } from '../../../src/serve/hosts.js';
import { parseListenAddress } from '../../../src/serve/listen.js';

describe('the Host allow-list of qprep serve (DNS rebinding)', () => {
  const onAddress = hostPolicy(parseListenAddress('10.0.0.5:9105'), []);

  it('answers loopback names and addresses and the listen address, with or without a port', () => {
    for (const host of ['127.0.0.1:9105', '127.0.0.1', 'localhost', 'LOCALHOST.:9105', '[::1]:9105', '127.8.0.1', '10.0.0.5:9105', '10.0.0.5', '127.1', '2130706433']) {
      expect(hostAllowed(onAddress, host), host).toBe(true);
    }
  });

  it('refuses any other name (a rebound one), another address, and what is not host[:port]', () => {
    for (const host of ['evil.example:9105', 'evil.example', '10.0.0.6:9105', 'node7', 'localhost.evil.example', 'x@127.0.0.1', '127.0.0.1/x', '', 'a b']) {
      expect(hostAllowed(onAddress, host), host).toBe(false);
    }
  });

  it('a request without Host (HTTP/1.0, never a browser) is answered', () => {
    expect(hostAllowed(onAddress, undefined)).toBe(true);
  });

  it('listening on every address, any address is answered, names still only when allowed', () => {
    for (const listen of ['0.0.0.0:9105', '[::]:9105']) {
      const policy = hostPolicy(parseListenAddress(listen), []);
      expect(hostAllowed(policy, '192.168.7.3:9105'), listen).toBe(true);
      expect(hostAllowed(policy, '[fd00::7]:9105'), listen).toBe(true);
      expect(hostAllowed(policy, 'node7.example:9105'), listen).toBe(false);
    }
  });

  it('--allow-host adds names and addresses (repeated or comma-separated), normalized; * answers every Host', () => {
    const policy = hostPolicy(parseListenAddress('127.0.0.1:9105'), ['Node7.Example.', 'qprep.kube-system.svc,fd00::1', '[fd00::2]:9105']);
    for (const host of ['node7.example:9105', 'NODE7.EXAMPLE', 'qprep.kube-system.svc:9105', '[fd00::1]:9105', '[fd00:0::2]']) expect(hostAllowed(policy, host), host).toBe(true);
    expect(hostAllowed(policy, 'node8.example')).toBe(false);
    expect(hostAllowed(hostPolicy(parseListenAddress('127.0.0.1:9105'), ['*']), 'anything.example:1')).toBe(true);
  });

  it('refuses an --allow-host that is not a host name or an address, with one line naming it', () => {
    for (const value of ['a_b', 'http://x/', 'user@host', 'two words', '-x.example']) {
      expect(() => hostPolicy(parseListenAddress('127.0.0.1:9105'), [value]), value).toThrow(`--allow-host ${JSON.stringify(value)}: not a host name or an address`);
    }
    expect(() => hostPolicy(parseListenAddress('127.0.0.1:9105'), ['a,,b'])).toThrow('--allow-host expects a host name or an address, got an empty value');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultRoute, parseProcNetRoute } from '../../../src/parsers/proc-net-route.js';
import { parseShellAssignments } from '../../../src/parsers/shell-assignments.js';
import { normalizeSysctlKey, parseSysctlConf, sysctlKeyMatches } from '../../../src/parsers/sysctl-conf.js';
import { parseTmpfiles, tmpfilesPathMatches } from '../../../src/parsers/tmpfiles.js';

/** Any text, including what a broken file or a binary blob holds. */
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.array(fc.constantFrom('=', '#', ';', '\n', ' ', '\t', '-', '/', '.', '*', 'a', '0', '"', "'", '\\'), { maxLength: 200 }).map((a) => a.join('')));

describe('sysctl.d files', () => {
  it('reads assignments, comments, "-" prefixes and the slash syntax as sysctl.d(5) describes', () => {
    const text = [
      '# comment',
      '; also a comment',
      'vm.swappiness = 10',
      'kernel.numa_balancing=1',
      '-kernel.sched_migration_cost_ns = 500000',
      'net/ipv4/conf/eth0.100/rp_filter = 2',
      'no equals sign here',
      '   ',
      'kernel.printk = 4\t4 1 7',
    ].join('\n');
    expect(parseSysctlConf(text)).toEqual([
      { key: 'vm.swappiness', value: '10', line: 3, ignoreErrors: false },
      { key: 'kernel.numa_balancing', value: '1', line: 4, ignoreErrors: false },
      { key: 'kernel.sched_migration_cost_ns', value: '500000', line: 5, ignoreErrors: true },
      { key: 'net.ipv4.conf.eth0/100.rp_filter', value: '2', line: 6, ignoreErrors: false },
      { key: 'kernel.printk', value: '4\t4 1 7', line: 9, ignoreErrors: false },
    ]);
  });

  it('swaps slashes and dots only when the first separator is a slash', () => {
    expect(normalizeSysctlKey('vm/swappiness')).toBe('vm.swappiness');
    expect(normalizeSysctlKey('net.ipv4.conf.eth0/100.rp_filter')).toBe('net.ipv4.conf.eth0/100.rp_filter');
  });

  it('matches globbed keys (systemd >= 238) within one level', () => {
    expect(sysctlKeyMatches('kernel.*', 'kernel.numa_balancing')).toBe(true);
    expect(sysctlKeyMatches('vm.*', 'kernel.numa_balancing')).toBe(false);
    expect(sysctlKeyMatches('vm.swappiness', 'vm.swappiness')).toBe(true);
  });

  it('never throws, whatever the input', () => {
    fc.assert(fc.property(anyText, (text) => Array.isArray(parseSysctlConf(text))));
    fc.assert(fc.property(anyText, anyText, (a, b) => typeof sysctlKeyMatches(a, b) === 'boolean'));
    expect(parseSysctlConf('vm.swappiness = 1\n'.repeat(200_000)).length).toBe(200_000);
  });
});

describe('tmpfiles.d files', () => {
  it('reads type, path and the argument (the rest of the line)', () => {
    const text = '# c\nw /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor - - - - performance\nd /run/x 0755 root root -\nw+ /sys/x - - - - a b c\nx\n';
    expect(parseTmpfiles(text)).toEqual([
      { type: 'w', path: '/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor', argument: 'performance', line: 2 },
      { type: 'd', path: '/run/x', argument: '-', line: 3 },
      { type: 'w+', path: '/sys/x', argument: 'a b c', line: 4 },
    ]);
  });

  it('matches shell globs against a path, one directory level per *', () => {
    expect(tmpfilesPathMatches('/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor', '/sys/devices/system/cpu/cpu12/cpufreq/scaling_governor')).toBe(true);
    expect(tmpfilesPathMatches('/sys/devices/system/cpu/*', '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor')).toBe(false);
    expect(tmpfilesPathMatches('/sys/devices/system/cpu/cpu[0-3]/cpufreq/scaling_governor', '/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor')).toBe(true);
    expect(tmpfilesPathMatches('/sys/[bad', '/sys/x')).toBe(false);
  });

  it('never throws, whatever the input', () => {
    fc.assert(fc.property(anyText, (text) => Array.isArray(parseTmpfiles(text))));
    fc.assert(fc.property(anyText, anyText, (a, b) => typeof tmpfilesPathMatches(a, b) === 'boolean'));
  });
});

describe('shell assignment files (/etc/default, /etc/sysconfig)', () => {
  it('reads bare, single- and double-quoted values without evaluating anything', () => {
    const vars = parseShellAssignments(
      "# governor='powersave'\ngovernor='ondemand'\nexport GOVERNOR=\"performance\" # trailing\nCPUPOWER_START_OPTS=\"frequency-set -g powersave\"\nBARE=value # note\nCMD=$(reboot)\n",
    );
    expect(vars.get('governor')).toBe('ondemand');
    expect(vars.get('GOVERNOR')).toBe('performance');
    expect(vars.get('CPUPOWER_START_OPTS')).toBe('frequency-set -g powersave');
    expect(vars.get('BARE')).toBe('value');
    expect(vars.get('CMD')).toBe('$(reboot)');
  });

  it('never throws, whatever the input', () => {
    fc.assert(fc.property(anyText, (text) => parseShellAssignments(text) instanceof Map));
  });
});

describe('/proc/net/route', () => {
  // The layout of this file (tab-separated, hex addresses in host byte order, trailing padding) as the kernel prints it.
  const table = [
    'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT                                                       ',
    'eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0                                                                               ',
    'bond0\t00000000\t01000A0A\t0003\t0\t0\t50\t00000000\t0\t0\t0                                                                               ',
    'eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0                                                                               ',
  ].join('\n');

  it('decodes routes and picks the default route with the lowest metric', () => {
    const routes = parseProcNetRoute(table);
    expect(routes).toHaveLength(3);
    expect(routes[0]).toEqual({ iface: 'eth0', destination: '0.0.0.0', gateway: '192.0.2.1', mask: '0.0.0.0', flags: 3, metric: 100 });
    expect(routes[2]!.destination).toBe('192.0.2.0');
    expect(routes[2]!.mask).toBe('255.255.255.0');
    expect(defaultRoute(routes)?.iface).toBe('bond0');
  });

  it('has no default route when none is up', () => {
    expect(defaultRoute(parseProcNetRoute(table.replace(/\t0003\t/g, '\t0002\t')))).toBeUndefined();
    expect(defaultRoute(parseProcNetRoute(''))).toBeUndefined();
  });

  it('skips lines that do not fit and never throws', () => {
    expect(parseProcNetRoute('eth0\tZZZZZZZZ\t00000000\t0001\t0\t0\t0\t00000000\n')).toEqual([]);
    fc.assert(fc.property(anyText, (text) => Array.isArray(parseProcNetRoute(text))));
  });
});

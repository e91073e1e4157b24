import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCpuList, readCpuList } from '../../../src/parsers/cpulist.js';
import { parseIdRanges } from '../../../src/parsers/id-ranges.js';
import { parseDeviceList } from '../../../src/probes/npu.js';
import { ldFlagsMatchArch, parseLdconfigCache } from '../../../src/parsers/ldconfig.js';
import { parseMeminfo } from '../../../src/parsers/meminfo.js';
import { mountFor, parseMountinfo } from '../../../src/parsers/mountinfo.js';
import { packageFamily, parseOsRelease } from '../../../src/parsers/os-release.js';
import { compressIPv6, parseProcNetTcp } from '../../../src/parsers/proc-net-tcp.js';

describe('cpulist', () => {
  it('parses ranges and singles', () => {
    expect(parseCpuList('0-3,8,10-11\n')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCpuList('0')).toEqual([0]);
    expect(parseCpuList('')).toEqual([]);
  });
  it('rejects garbage', () => {
    expect(parseCpuList('0-')).toBeUndefined();
    expect(parseCpuList('3-1')).toBeUndefined();
    expect(parseCpuList('cpu0')).toBeUndefined();
  });
  it('refuses impossible lists by NR_CPUS (8192), saying which limit', () => {
    expect(readCpuList('0-8191').ok).toBe(true);
    expect(readCpuList('8192')).toEqual({ ok: false, kind: 'limit', reason: '8192 is beyond the limit of 8192 (ids 0-8191)' });
    expect(readCpuList('0-4294967295')).toMatchObject({ ok: false, kind: 'limit' });
    expect(readCpuList(Array(8193).fill('1').join(','))).toEqual({ ok: false, kind: 'limit', reason: 'more than 8192 entries' });
    expect(readCpuList(Array(8192).fill('1').join(','))).toEqual({ ok: true, ids: [1] });
  });
  it('never yields more ids than the limit, whatever the input', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { maxLength: 50 }), (pairs) => {
        const parsed = parseIdRanges(pairs.map(([a, b]) => `${a}-${a + b}`).join(','), 16);
        if (parsed.ok) expect(parsed.ids.every((id) => id < 16)).toBe(true);
        else expect(parsed.kind).toBe('limit');
      }),
    );
  });
  it('device lists stop below 1000 ids and keep their old syntax', () => {
    expect(parseDeviceList('0,1,4-7')).toEqual([0, 1, 4, 5, 6, 7]);
    expect(parseDeviceList(' 3 , 1')).toEqual([1, 3]);
    expect(parseDeviceList('')).toBeUndefined();
    expect(parseDeviceList('0-999999999')).toBeUndefined();
  });
});

describe('meminfo', () => {
  it('converts kB to bytes and keeps plain counters', () => {
    const fields = parseMeminfo('MemTotal:       16318412 kB\nHugePages_Total:       0\nDirectMap2M:    8192000 kB\n');
    expect(fields.get('MemTotal')).toBe(16318412 * 1024);
    expect(fields.get('HugePages_Total')).toBe(0);
  });
});

describe('/proc/net/tcp', () => {
  it('decodes little-endian IPv4 and IPv6 addresses and ports', () => {
    const v4 = parseProcNetTcp('  sl  local_address rem_address   st\n   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 555 1 0 100 0 0 10 0\n', 'IPv4');
    expect(v4).toEqual([{ family: 'IPv4', localAddress: '127.0.0.1', localPort: 8000, state: 10, uid: 1000, inode: 555 }]);
    const v6 = parseProcNetTcp('   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0 100 0 0 10 0\n', 'IPv6');
    expect(v6[0]!.localAddress).toBe('::1');
    expect(v6[0]!.localPort).toBe(8080);
  });
  it('compresses IPv6 the RFC 5952 way', () => {
    expect(compressIPv6([0, 0, 0, 0, 0, 0, 0, 0])).toBe('::');
    expect(compressIPv6([0xfe80, 0, 0, 0, 1, 2, 3, 4])).toBe('fe80::1:2:3:4');
    expect(compressIPv6([1, 0, 2, 3, 4, 5, 6, 7])).toBe('1:0:2:3:4:5:6:7');
  });
  it('never throws and skips lines that do not parse', () => {
    fc.assert(fc.property(fc.string(), (text) => Array.isArray(parseProcNetTcp(text, 'IPv4'))));
    expect(parseProcNetTcp('garbage\n  1: zz:zz 0 0A\n', 'IPv4')).toEqual([]);
  });
});

describe('ldconfig -p', () => {
  it('reads soname, flags and path', () => {
    const entries = parseLdconfigCache("3 libs found in cache `/etc/ld.so.cache'\n\tlibjemalloc.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libjemalloc.so.2\n\tlibc.so.6 (libc6,AArch64, OS ABI: Linux 3.7.0) => /lib64/libc.so.6\n");
    expect(entries).toEqual([
      { soname: 'libjemalloc.so.2', flags: 'libc6,x86-64', path: '/lib/x86_64-linux-gnu/libjemalloc.so.2' },
      { soname: 'libc.so.6', flags: 'libc6,AArch64, OS ABI: Linux 3.7.0', path: '/lib64/libc.so.6' },
    ]);
    expect(ldFlagsMatchArch('libc6,x86-64', 'x86_64')).toBe(true);
    expect(ldFlagsMatchArch('libc6,AArch64', 'x86_64')).toBe(false);
  });
});

describe('os-release', () => {
  it('reads quoted values and the package family', () => {
    const os = parseOsRelease('NAME="openEuler"\nVERSION="22.03 (LTS-SP3)"\nID="openEuler"\nVERSION_ID="22.03"\nPRETTY_NAME="openEuler 22.03 (LTS-SP3)"\n');
    expect(os.prettyName).toBe('openEuler 22.03 (LTS-SP3)');
    expect(packageFamily(os)).toBe('rpm');
    expect(packageFamily(parseOsRelease('ID=ubuntu\nID_LIKE=debian\n'))).toBe('deb');
    expect(packageFamily(parseOsRelease(''))).toBe('unknown');
  });
});

describe('mountinfo', () => {
  const text =
    '22 1 0:21 / / rw,relatime - overlay overlay rw,lowerdir=/l\n' +
    '30 22 0:5 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k\n' +
    '31 30 0:6 /davinci0 /dev/davinci0 rw - devtmpfs udev rw\n' +
    '40 22 8:1 /usr/local/Ascend/driver/lib64 /usr/local/Ascend/driver/lib64 ro,relatime master:1 - ext4 /dev/sda1 rw\n' +
    '41 22 8:1 /data/my\\040models /models rw - ext4 /dev/sda1 rw\n';
  it('parses bind mounts, optional fields and escapes', () => {
    const { mounts, skippedLines } = parseMountinfo(text);
    expect(skippedLines).toBe(0);
    expect(mounts).toHaveLength(5);
    expect(mounts[3]).toMatchObject({ root: '/usr/local/Ascend/driver/lib64', mountPoint: '/usr/local/Ascend/driver/lib64', fsType: 'ext4', source: '/dev/sda1', options: ['ro', 'relatime'] });
    expect(mounts[4]!.root).toBe('/data/my models');
  });
  it('finds the mount that holds a path', () => {
    const { mounts } = parseMountinfo(text);
    expect(mountFor(mounts, '/usr/local/Ascend/driver/lib64/libascend_hal.so')?.mountId).toBe(40);
    expect(mountFor(mounts, '/usr/local/Ascend/driver/version.info')?.mountId).toBe(22);
    expect(mountFor(mounts, '/dev/davinci0')?.mountId).toBe(31);
  });
  it('counts lines it cannot parse and never throws', () => {
    expect(parseMountinfo('garbage line\n').skippedLines).toBe(1);
    fc.assert(fc.property(fc.string(), (s) => Array.isArray(parseMountinfo(s).mounts)));
  });
});

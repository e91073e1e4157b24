import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseAscendInstallInfo,
  parseAscendKeyValue,
  parseCannInstallInfo,
  parseDriverVersionInfo,
  parseFirmwareVersionInfo,
} from '../../../src/parsers/ascend-files.js';
import { parseMountinfo } from '../../../src/parsers/mountinfo.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';

describe('driver version.info', () => {
  it('25.0.rc1.1: release, inner version, the CANN list and the firmware range', () => {
    const info = parseDriverVersionInfo(ascendFixture('driver-version-info-25.0.rc1.1-mindie-notes.txt'));
    expect(info).toMatchObject({
      version: '25.0.rc1.1',
      innerVersionText: 'V100R001C21SPC002B220',
      innerVersion: { v: 100, r: 1, c: 21, spc: 2, b: 220, vrc: 'V100R001C21' },
      compatibleCann: '[V100R001C17],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21]',
      compatibleFirmware: [['7.0.0', '7.7.99']],
      ascendhalVersion: '7.35.23',
    });
  });

  it('package_version wins over a component Version (a newer driver writes Version=7.35.23)', () => {
    expect(parseDriverVersionInfo('Version=7.35.23\npackage_version=26.0.rc1\n').version).toBe('26.0.rc1');
    expect(parseDriverVersionInfo('Version=24.1.rc1\n').version).toBe('24.1.rc1');
  });

  it('CRLF, a BOM and unknown keys are fine; an empty file has no version', () => {
    expect(parseDriverVersionInfo('\ufeffVersion=25.3.rc1\r\nfoo=bar\r\n').version).toBe('25.3.rc1');
    expect(parseDriverVersionInfo('')).toMatchObject({ version: null, innerVersion: null, compatibleFirmware: [] });
  });

  it('the derived 25.3.rc1 file (values the reference reports from a host)', () => {
    expect(parseDriverVersionInfo(syntheticFixture('driver-version-info-25.3.rc1-derived.txt'))).toMatchObject({
      version: '25.3.rc1',
      innerVersion: { c: 23 },
      compatibleCann: null,
      compatibleFirmware: [['7.0.0', '8.9.9']],
    });
  });
});

describe('firmware version.info', () => {
  it('7.7.0.1.231 with the driver majors it supports (prefix bounds)', () => {
    expect(parseFirmwareVersionInfo(ascendFixture('firmware-version-info-7.7.0.1.231-mindie-notes.txt'))).toEqual({
      version: '7.7.0.1.231',
      packageVersion: '25.0.rc1.1',
      compatibleDrivers: [['23.0.0', '23.0.0.'], ['24.0', '24.0.'], ['24.1', '24.1.'], ['25.0', '25.0.']],
    });
  });

  it('7.1.0.11.220 of HDK 23.0.7', () => {
    expect(parseFirmwareVersionInfo(ascendFixture('firmware-version-info-7.1.0.11-mindcluster-fixture.txt'))).toEqual({
      version: '7.1.0.11.220',
      packageVersion: '23.0.7',
      compatibleDrivers: [['23.0.rc3', '23.0.rc3.'], ['23.0.0', '23.0.0.']],
    });
  });
});

describe('/etc/ascend_install.info', () => {
  it('install paths and user; no Driver_Install_Status in this older file', () => {
    expect(parseAscendInstallInfo(ascendFixture('ascend-install-info-llm-action.txt'))).toEqual({
      driverInstallPath: '/usr/local/Ascend',
      firmwareInstallPath: '/usr/local/Ascend',
      driverInstallStatus: null,
      userName: 'HwHiAiUser',
      userGroup: 'HwHiAiUser',
    });
    expect(parseAscendInstallInfo('Driver_Install_Path_Param=/opt/Ascend\nDriver_Install_Status=complete\n')).toMatchObject({ driverInstallPath: '/opt/Ascend', driverInstallStatus: 'complete' });
  });
});

describe('CANN install records', () => {
  it('toolkit 8.3.RC2 (ascend-toolkit/latest/<arch>-linux layout)', () => {
    expect(parseCannInstallInfo(ascendFixture('cann-toolkit-install-info-8.3.RC2-vllm-ascend-5784.txt'))).toMatchObject({
      packageName: 'Ascend-cann-toolkit',
      version: '8.3.RC2',
      innerVersion: { c: 23, vrc: 'V100R001C23' },
      compatibleDrivers: '[V100R001C15],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21],[V100R001C23]',
      arch: 'aarch64',
      path: '/usr/local/Ascend/ascend-toolkit/8.3.RC2/aarch64-linux',
      componentVersion: null,
    });
  });

  it('toolkit 7.0.T10 (an inner version without SPC) and nnae 8.0.RC3 (a range in its list)', () => {
    expect(parseCannInstallInfo(ascendFixture('cann-toolkit-install-info-7.0.T10-mindcluster-fixture.txt'))).toMatchObject({ version: '7.0.T10', innerVersion: { c: 13, spc: null, b: 222 } });
    expect(parseCannInstallInfo(ascendFixture('cann-nnae-install-info-8.0.RC3-mindcluster-fixture.txt'))).toMatchObject({
      packageName: 'Ascend-cann-nnae',
      version: '8.0.RC3',
      compatibleDrivers: '[V100R001C13,V100R001C19],[V100R001C30]',
      arch: 'x86_64',
    });
  });

  it('a component version.info: the release is version_dir, the component number is kept apart', () => {
    expect(parseCannInstallInfo(ascendFixture('cann-toolkit-version-info-8.2.RC1-mindie-notes.txt'))).toMatchObject({
      version: '8.2.RC1',
      componentVersion: '8.2.0.0.201',
      innerVersion: null,
    });
  });

  it('NNAL and MindIE files use "key : value"', () => {
    const atb = parseAscendKeyValue(ascendFixture('nnal-atb-version-info-8.2.RC1-mindie-notes.txt'));
    expect(atb.entries.map((e) => [e.key, e.value])).toContainEqual(['Ascend-cann-atb Version', '8.2.RC1.B150']);
    const mindie = parseAscendKeyValue(ascendFixture('mindie-version-info-2.1.RC1-mindie-notes.txt'));
    expect(mindie.entries.map((e) => [e.key, e.value])).toContainEqual(['mindie-sd', '2.1.RC1.B152']);
    expect(mindie.skippedLines).toEqual([]);
  });
});

describe('/proc/self/mountinfo (the existing parser) on a container with the guide\'s bind mounts', () => {
  it('sees file and directory bind mounts with their host source', () => {
    const text = [
      '1093 992 0:120 / / rw,relatime master:464 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A',
      '1101 1093 253:0 /usr/local/Ascend/driver/lib64 /usr/local/Ascend/driver/lib64 rw,relatime - ext4 /dev/mapper/vg-root rw',
      '1102 1093 253:0 /etc/ascend_install.info /etc/ascend_install.info rw,relatime - ext4 /dev/mapper/vg-root rw',
    ].join('\n');
    const { mounts, skippedLines } = parseMountinfo(text);
    expect(skippedLines).toBe(0);
    expect(mounts.map((m) => [m.mountPoint, m.root, m.fsType])).toEqual([
      ['/', '/', 'overlay'],
      ['/usr/local/Ascend/driver/lib64', '/usr/local/Ascend/driver/lib64', 'ext4'],
      ['/etc/ascend_install.info', '/etc/ascend_install.info', 'ext4'],
    ]);
  });
});

describe('the file parsers never throw', () => {
  it('arbitrary text and bytes; long lines are skipped and named', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 1000 }), fc.uint8Array({ maxLength: 1000 })), (input) => {
        parseDriverVersionInfo(input);
        parseFirmwareVersionInfo(input);
        parseAscendInstallInfo(input);
        parseCannInstallInfo(input);
      }),
    );
    const big = parseAscendKeyValue(`Version=${'9'.repeat(10 * 1024 * 1024)}\nfoo=bar\n`);
    expect(big.skippedLines[0]!.line).toBe(1);
    expect(big.entries).toEqual([{ key: 'foo', value: 'bar', line: 2 }]);
  });
});

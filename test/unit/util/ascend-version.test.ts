import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declaredDriverCann, declaredDriverFirmware, describeInnerList, knownIncompatibilities } from '../../../src/probes/ascend-compat.js';
import {
  compareAscendVersions,
  hasVersionPrefix,
  innerVersionListIncludes,
  inVersionRange,
  isAscendVersion,
  parseBracketList,
  parseInnerVersion,
} from '../../../src/util/ascend-version.js';

describe('compareAscendVersions', () => {
  it('orders the versions the vendor prints, oldest first', () => {
    const ordered = [
      '7.0.T10',
      '8.0.RC3',
      '8.0.0',
      '8.2.RC1',
      '8.3.RC2',
      '8.5.0',
      '21.0.4',
      '21.0.4.B030',
      '23.0.rc3',
      '23.0.0',
      '24.1.RC2',
      '24.1.rc2.2',
      '24.1.rc3',
      '24.1.0',
      '24.1.0.3',
      '25.0.rc1',
      '25.0.rc1.1',
      '25.0.0',
      '25.3.rc1',
      '26.0.rc2',
    ];
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect(compareAscendVersions(ordered[i]!, ordered[j]!), `${ordered[i]} vs ${ordered[j]}`).toBe(Math.sign(i - j));
      }
    }
  });

  it('rc is rc whatever its case; a missing position is release 0', () => {
    expect(compareAscendVersions('24.1.RC2', '24.1.rc2')).toBe(0);
    expect(compareAscendVersions('25.0', '25.0.0')).toBe(0);
    expect(compareAscendVersions('25.0.rc1', '25.0.rc1.0')).toBe(0);
    expect(compareAscendVersions('25.0.rc1', '25.0.rc1.1')).toBe(-1);
    expect(compareAscendVersions('7.7.0.1.231', '7.7.99')).toBe(-1);
    expect(compareAscendVersions('7.7.0.1.231', '7.0.0')).toBe(1);
    expect(compareAscendVersions('8.9.9', '7.8.0.7.220')).toBe(1);
  });

  it('is undefined for what is not a version', () => {
    for (const text of ['', 'x.x.x', '7.5.0.5.220-24.1.0.3', '25..1', '25.0.', 'latest', 'V100R001C21']) {
      expect(compareAscendVersions(text, '1.0'), text).toBeUndefined();
      expect(isAscendVersion(text)).toBe(false);
    }
  });

  it('is a total order on versions: antisymmetric and transitive (property)', () => {
    const part = fc.oneof(fc.nat(30).map(String), fc.nat(5).map((n) => `rc${n}`), fc.nat(5).map((n) => `RC${n}`), fc.nat(20).map((n) => `T${n}`), fc.nat(300).map((n) => `B${n}`));
    const version = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const ab = compareAscendVersions(a, b)!;
        expect(compareAscendVersions(b, a)).toBe(-ab || 0);
        if (ab <= 0 && compareAscendVersions(b, c)! <= 0) expect(compareAscendVersions(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const order = compareAscendVersions(a, b);
        expect(order === undefined || [-1, 0, 1].includes(order)).toBe(true);
      }),
    );
  });
});

describe('ranges and prefixes of the vendor files', () => {
  it('a high bound ending in a dot is a prefix ([24.1,24.1.] = every 24.1.x)', () => {
    expect(inVersionRange('24.1.rc2.2', '24.1', '24.1.')).toBe(true);
    expect(inVersionRange('24.1', '24.1', '24.1.')).toBe(true);
    expect(inVersionRange('24.10.0', '24.1', '24.1.')).toBe(false);
    expect(inVersionRange('25.0.rc1.1', '25.0', '25.0.')).toBe(true);
    expect(inVersionRange('25.3.rc1', '25.0', '25.0.')).toBe(false);
    expect(inVersionRange('23.0.rc3.1', '23.0.rc3', '23.0.rc3.')).toBe(true);
  });

  it('plain bounds are inclusive', () => {
    expect(inVersionRange('7.7.0.1.231', '7.0.0', '7.7.99')).toBe(true);
    expect(inVersionRange('7.8.0.7.220', '7.0.0', '7.7.99')).toBe(false);
    expect(inVersionRange('7.0.0', '7.0.0', '7.7.99')).toBe(true);
    expect(inVersionRange('x.x.x', '7.0.0', '7.7.99')).toBeUndefined();
  });

  it('prefixes match whole positions', () => {
    expect(hasVersionPrefix('8.3.RC2', '8.3.rc2')).toBe(true);
    expect(hasVersionPrefix('8.3.RC2.1', '8.3.RC2')).toBe(true);
    expect(hasVersionPrefix('8.30.0', '8.3')).toBe(false);
  });

  it('bracket lists', () => {
    expect(parseBracketList('[7.0.0,7.7.99]')).toEqual([['7.0.0', '7.7.99']]);
    expect(parseBracketList('[V100R001C17],[V100R001C13,V100R001C19]')).toEqual([['V100R001C17', 'V100R001C17'], ['V100R001C13', 'V100R001C19']]);
    expect(parseBracketList('garbage')).toEqual([]);
  });
});

describe('inner versions', () => {
  it('parses V, R, C, SPC and B', () => {
    expect(parseInnerVersion('V100R001C23SPC002B210')).toEqual({ v: 100, r: 1, c: 23, spc: 2, b: 210, vrc: 'V100R001C23' });
    expect(parseInnerVersion('V100R001C13B222')).toEqual({ v: 100, r: 1, c: 13, spc: null, b: 222, vrc: 'V100R001C13' });
    expect(parseInnerVersion('8.3.RC2')).toBeUndefined();
  });

  it('a list names an inner version by V, R and C, singly or in a range', () => {
    const c21 = parseInnerVersion('V100R001C21SPC002B220')!;
    expect(innerVersionListIncludes('[V100R001C17],[V100R001C21]', c21)).toBe(true);
    expect(innerVersionListIncludes('[V100R001C13,V100R001C19],[V100R001C30]', c21)).toBe(false);
    expect(innerVersionListIncludes('[V100R001C13,V100R001C22]', c21)).toBe(true);
    expect(innerVersionListIncludes('[V100R003C10]', c21)).toBe(false);
    expect(innerVersionListIncludes('nonsense', c21)).toBeUndefined();
    expect(describeInnerList('[V100R001C17],[V100R001C18],[V100R001C21]')).toBe('V100R001C17/C18/C21');
  });
});

describe('compatibility from the declarations', () => {
  const driver25 = {
    version: '25.0.rc1.1',
    innerVersion: parseInnerVersion('V100R001C21SPC002B220')!,
    compatibleCann: '[V100R001C17],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21]',
    compatibleFirmware: [['7.0.0', '7.7.99']] as Array<[string, string]>,
  };

  it('CANN 8.3.RC2 (C23) on driver 25.0.rc1.1 (C21): the newer CANN lists the driver', () => {
    const cann = { version: '8.3.RC2', innerVersion: parseInnerVersion('V100R001C23SPC002B210')!, compatibleDrivers: '[V100R001C15],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21],[V100R001C23]' };
    expect(declaredDriverCann(driver25, cann)).toEqual({ verdict: 'compatible', by: ['CANN'] });
  });

  it('CANN 7.0.T10 (C13) on driver 25.0.rc1.1: neither lists the other', () => {
    const cann = { version: '7.0.T10', innerVersion: parseInnerVersion('V100R001C13B222')!, compatibleDrivers: '[V100R001C29],[V100R001C30],[V100R001C13],[V100R003C10],[V100R003C11]' };
    expect(declaredDriverCann(driver25, cann)).toEqual({ verdict: 'incompatible', by: ['driver', 'CANN'] });
  });

  it('no lists at all: undeclared', () => {
    expect(declaredDriverCann({ ...driver25, innerVersion: null, compatibleCann: null }, { version: '8.2.RC1', innerVersion: null, compatibleDrivers: null })).toEqual({ verdict: 'undeclared', by: [] });
  });

  it('firmware 7.7.0.1.231 with driver 25.0.rc1.1 (both declare it), with 25.3.rc1 (only the newer driver does)', () => {
    const firmware = { version: '7.7.0.1.231', compatibleDrivers: parseBracketList('[23.0.0,23.0.0.],[24.0,24.0.],[24.1,24.1.],[25.0,25.0.]') };
    expect(declaredDriverFirmware(driver25, firmware)).toEqual({ verdict: 'compatible', by: ['driver', 'firmware'] });
    expect(declaredDriverFirmware({ version: '25.3.rc1', compatibleFirmware: [['7.0.0', '8.9.9']] }, firmware)).toEqual({ verdict: 'compatible', by: ['driver'] });
    expect(declaredDriverFirmware({ version: '26.0.rc1', compatibleFirmware: [['8.0.0', '8.9.9']] }, firmware)).toEqual({ verdict: 'incompatible', by: ['driver', 'firmware'] });
  });

  it('the known-bad table: driver 24.1.x with CANN 8.3.RC2 (vllm-ascend #5468), and nothing for a good pair', () => {
    expect(knownIncompatibilities('24.1.rc2.2', '8.3.RC2').map((k) => k.confidence)).toEqual(['confirmed']);
    expect(knownIncompatibilities('24.1.rc3', '8.0.RC3').map((k) => k.confidence)).toEqual(['reported']);
    expect(knownIncompatibilities('25.2.1', '8.3.RC2')).toEqual([]);
    expect(knownIncompatibilities('24.1.rc2', '8.2.RC2')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.conf.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { defaultConf, hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const CLUSTER = { cluster: twoNodeCluster(), node: 'node1' };

describe('hccn.conf', () => {
  it('passes when every device has address_N equal to its running address', async () => {
    const { outcome } = await runHccn(check, hccnHost(), CLUSTER);
    expect(outcome).toMatchObject({ status: 'pass', message: '/etc/hccn.conf has an address for all 8 devices, equal to the running ones' });
  });

  it('reads the published file (keys in any order) and names what differs from hccn_tool, with line numbers', async () => {
    const conf = ascendFixture('hccn-conf-910b-arthurchiao.txt');
    const { outcome } = await runHccn(check, hccnHost({ conf }), CLUSTER);
    expect(outcome.status).toBe('fail');
    // the blog's file has address_0 and address_7 only (the author elided the rest), with other addresses
    expect(outcome.details).toContain('no address_N for dev1, dev2, dev3, dev4, dev5, dev6');
    expect(outcome.details).toContain('address_0=29.1.137.205 (line 1) but the device has 11.12.165.80');
    expect(outcome.details).toContain('netmask_0=255.255.0.0 but the device has 255.255.255.0');
    expectRemediation(outcome);
  });

  it('a stale address after "hccn_tool -ip -s" without persistence fails with the line', async () => {
    const conf = defaultConf([0, 1, 2, 3, 4, 5, 6, 7]).replace('address_3=11.12.165.83', 'address_3=11.12.165.93');
    const { outcome } = await runHccn(check, hccnHost({ conf }), CLUSTER);
    expect(outcome).toMatchObject({ status: 'fail', message: '/etc/hccn.conf address_3=11.12.165.93 (line 13) but the device has 11.12.165.83' });
  });

  it('the synthetic any-order file with a duplicate key: the later value wins, as the driver reads it', async () => {
    const conf = syntheticFixture('hccn-conf-any-order-no-netdetect.txt');
    const { outcome } = await runHccn(check, hccnHost({ devices: [0, 1], env: { ASCEND_RT_VISIBLE_DEVICES: '0,1' }, conf, answers: { ip: (d) => `ipaddr:198.18.1.${d === 0 ? 10 : 21}\nnetmask:255.255.0.0\n` } }), CLUSTER);
    expect(outcome.status).toBe('pass');
  });

  it('missing on the host: the device IPs are not persisted (fail in a cluster, warn alone)', async () => {
    const clustered = await runHccn(check, hccnHost({ conf: null }), CLUSTER);
    expect(clustered.outcome.status).toBe('fail');
    expect(clustered.outcome.message).toBe('/etc/hccn.conf does not exist: the device IPs are not persisted and are lost at the next reboot');
    const alone = await runHccn(check, hccnHost({ conf: null }));
    expect(alone.outcome.status).toBe('warn');
  });

  it('not in the container: a warning with the -v flag, a failure when KV caches go over the NPU network', async () => {
    const plain = await runHccn(check, hccnHost({ conf: null, container: true }), CLUSTER);
    expect(plain.outcome.status).toBe('warn');
    expect(plain.outcome.remediation).toBe('add -v /etc/hccn.conf:/etc/hccn.conf to docker run');
    const pd = await runHccn(check, hccnHost({ conf: null, container: true }), { ...CLUSTER, profile: { hccn: { kvTransfer: true } } });
    expect(pd.outcome.status).toBe('fail');
  });

  it('in a container, a copy in the image (not a bind mount per mountinfo) fails: it goes stale', async () => {
    const { outcome } = await runHccn(check, hccnHost({ container: true }), CLUSTER);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('a copy in the image');
    expect(outcome.remediation).toBe('add -v /etc/hccn.conf:/etc/hccn.conf to docker run');
  });

  it('in a container with the file bind-mounted it passes and says so', async () => {
    const spec = hccnHost({ container: true });
    const mountinfo = spec.files!['/proc/self/mountinfo'] as string;
    spec.files!['/proc/self/mountinfo'] = `${mountinfo}1200 1093 253:1 /etc/hccn.conf /etc/hccn.conf rw,relatime - ext4 /dev/vda1 rw\n`;
    const { outcome } = await runHccn(check, spec, CLUSTER);
    expect(outcome).toMatchObject({ status: 'pass', message: '/etc/hccn.conf has an address for all 8 devices, equal to the running ones, mounted from the host' });
  });

  it('an unreadable file is an error', async () => {
    const { outcome } = await runHccn(check, hccnHost({ conf: null, files: { '/etc/hccn.conf': { error: 'EACCES' } } }), CLUSTER);
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

describe('hccn.conf in Chinese', () => {
  it('the pass, a stale address and the published file in Chinese; actual stays English', async () => {
    const ok = await runHccn(check, hccnHost(), { ...CLUSTER, lang: 'zh' });
    expect(ok.result.title).toBe('/etc/hccn.conf 存在且与当前配置一致');
    expect(ok.outcome.message).toBe('/etc/hccn.conf 为全部 8 个设备记录了地址，与当前运行的地址一致');
    const stale = hccnHost({ conf: defaultConf([0, 1, 2, 3, 4, 5, 6, 7]).replace('address_3=11.12.165.83', 'address_3=11.12.165.93') });
    const chinese = await runHccn(check, stale, { ...CLUSTER, lang: 'zh' });
    expect(chinese.outcome.message).toBe('/etc/hccn.conf：address_3=11.12.165.93（第 13 行），但设备的地址是 11.12.165.83');
    expectChineseTwin((await runHccn(check, stale, CLUSTER)).outcome, chinese.outcome, ['hccn_tool -i N -ip -s address <ip> netmask <mask>']);
    const published = hccnHost({ conf: ascendFixture('hccn-conf-910b-arthurchiao.txt') });
    const english = await runHccn(check, published, CLUSTER);
    const many = await runHccn(check, published, { ...CLUSTER, lang: 'zh' });
    expect(many.outcome.details).toContain('address_0=29.1.137.205（第 1 行），但设备的地址是 11.12.165.80');
    expect(many.outcome.actual).toContain('address_0=29.1.137.205 (line 1) but the device has 11.12.165.80');
    expectChineseTwin(english.outcome, many.outcome);
  });

  it('missing, not in the container, and unreadable, in Chinese', async () => {
    const missing = await runHccn(check, hccnHost({ conf: null }), { ...CLUSTER, lang: 'zh' });
    expect(missing.outcome.message).toBe('/etc/hccn.conf 不存在：设备 IP 未持久化，下次重启后会丢失');
    const container = hccnHost({ conf: null, container: true });
    const chinese = await runHccn(check, container, { ...CLUSTER, lang: 'zh' });
    expect(chinese.outcome.remediation).toBe('在 docker run 中加上 -v /etc/hccn.conf:/etc/hccn.conf');
    expectChineseTwin((await runHccn(check, container, CLUSTER)).outcome, chinese.outcome);
    const unreadable = hccnHost({ conf: null, files: { '/etc/hccn.conf': { error: 'EACCES' } } });
    const denied = await runHccn(check, unreadable, { ...CLUSTER, lang: 'zh' });
    expect(denied.outcome.status).toBe('error');
    expect(denied.outcome.remediation).toBe('使 /etc/hccn.conf 可读（以 root 运行 qprep）');
    expectChineseTwin((await runHccn(check, unreadable, CLUSTER)).outcome, denied.outcome);
  });
});

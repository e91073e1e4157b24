import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.conf.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { defaultConf, hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';

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

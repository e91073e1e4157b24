import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.tools.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { HCCN_TOOL, NPU_SMI, npuHost } from '../../helpers/npu-host.js';

describe('npu.tools', () => {
  it('finds npu-smi on PATH and hccn_tool in the driver tools directory', async () => {
    const { outcome } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe(`npu-smi at ${NPU_SMI}, hccn_tool at ${HCCN_TOOL}`);
  });

  it('finds npu-smi in /usr/local/sbin when PATH lacks it', async () => {
    const spec = npuHost({ missing: [NPU_SMI], files: { '/usr/local/sbin/npu-smi': { kind: 'file', content: '', mode: 0o755 } }, env: { PATH: '/usr/bin' } });
    spec.commands![0]!.argv[0] = '/usr/local/sbin/npu-smi';
    const { outcome } = await runOn(check, spec);
    expect(outcome.message).toContain('npu-smi at /usr/local/sbin/npu-smi');
  });

  it('fails with both -v flags in a container that has neither', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, missing: [NPU_SMI, HCCN_TOOL] }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('not found: npu-smi (not on PATH, not in /usr/local/sbin or /usr/local/bin); hccn_tool (not on PATH, not in /usr/local/Ascend/driver/tools)');
    expect(outcome.remediation).toBe(
      'add -v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi -v /usr/local/Ascend/driver/tools/hccn_tool:/usr/local/Ascend/driver/tools/hccn_tool to docker run',
    );
    expectRemediation(outcome);
  });

  it('does not ask a 310P host for hccn_tool (no NPU network)', async () => {
    const { outcome } = await runOn(check, npuHost({ missing: [HCCN_TOOL], info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt') }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe(`npu-smi at ${NPU_SMI}, no hccn_tool (not needed for family 310p)`);
  });

  it('a file without the execute bit is not a tool', async () => {
    const { outcome } = await runOn(check, npuHost({ files: { [HCCN_TOOL]: { kind: 'file', content: '', mode: 0o644 } } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('hccn_tool');
  });
});

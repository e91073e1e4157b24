import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.ecc.js';
import type { FakeCommand } from '../../helpers/fake-host.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { cleanEccAnswer } from '../../helpers/npu-ecc.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { NPU_SMI, npuHost } from '../../helpers/npu-host.js';

/** NPU 5: 3 uncorrectable errors, 2 pages retired (derived from the same capture). */
const RETIRED = syntheticFixture('npu-smi-info-t-ecc-hbm-uncorrectable-retired-derived.txt');

function eccCommands(cards: number[], answers: Record<number, string | Omit<FakeCommand, 'argv'>> = {}): FakeCommand[] {
  return cards.map((card) => {
    const answer = answers[card] ?? cleanEccAnswer(card);
    return { argv: [NPU_SMI, 'info', '-t', 'ecc', '-i', String(card)], ...(typeof answer === 'string' ? { stdout: answer } : answer) };
  });
}

const A2 = [0, 1, 2, 3, 4, 5, 6, 7];

describe('npu.ecc', () => {
  it('passes on clean counters, one npu-smi call per card (mind-cluster doc capture)', async () => {
    const { outcome, host } = await runOn(check, npuHost({ commands: eccCommands(A2) }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('HBM of 8 NPU devices: no uncorrectable error since the driver loaded, no page pending isolation');
    expect(host.calls.filter((argv) => argv.includes('ecc'))).toHaveLength(8);
  });

  it('fails on uncorrectable HBM errors with retired pages: isolate-npu, the NPU left out and its HBM diagnosed (derived capture)', async () => {
    const { outcome, result } = await runOn(check, npuHost({ commands: eccCommands(A2, { 5: RETIRED }) }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 of 8 NPU devices the workload uses has failing HBM: NPU 5: 3 uncorrectable (double-bit) HBM errors since the driver loaded, 2 pages retired');
    expect(outcome.action).toBe('isolate-npu');
    expect(result.action).toBe('isolate-npu');
    expect(outcome.remediation!.split('\n')).toEqual([
      "export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,6,7   # leave NPU 5 out (and out of the container's --device flags) until its HBM is cleared",
      "ascend-dmi --dg -i hbm   # the toolbox's HBM diagnosis (it stops the jobs on the NPUs); replace the card if it fails",
    ]);
    expect(outcome.actual).toBe('NPU 5: doubleBitErrors=3');
    const chip = (outcome.evidence as { chips: Array<Record<string, unknown>> }).chips.find((c) => c.card === 5)!;
    expect(chip).toMatchObject({ device: 5, used: true, hbm: { doubleBitErrors: 3, doubleBitIsolatedPages: 2, singleBitErrors: 12 }, findings: [{ rule: 'uncorrectable', value: 3, atLeast: 1, action: 'isolate-npu' }] });
    expectRemediation(outcome);
  });

  it('in Chinese', async () => {
    const { outcome } = await runOn(check, npuHost({ commands: eccCommands(A2, { 5: RETIRED }) }), {}, { lang: 'zh' });
    expect(outcome.message).toBe('负载使用的 8 个 NPU 设备中有 1 个 HBM 异常：NPU 5：驱动加载以来 3 个不可纠正（多 bit）HBM 错误，已隔离 2 个页');
    expect(outcome.remediation!.split('\n')[1]).toBe('ascend-dmi --dg -i hbm   # 工具包的片上内存诊断（会中断 NPU 上的作业）；诊断失败则更换板卡');
  });

  it('a page pending isolation asks for a reset (derived 950 capture)', async () => {
    const pending = syntheticFixture('npu-smi-info-t-ecc-hbm-pending-isolation-950-derived.txt').replace(/(NPU ID\s+: )0/, '$12');
    const { outcome } = await runOn(check, npuHost({ commands: eccCommands(A2, { 2: pending }) }));
    expect(outcome.status).toBe('fail');
    // the reset is the milder of the two: the uncorrectable error still takes the chip out first
    expect(outcome.action).toBe('isolate-npu');
    expect(outcome.message).toContain('NPU 2: 1 HBM page with uncorrectable errors pending isolation (isolated at the next reset); 1 uncorrectable (double-bit) HBM error since the driver loaded');
    expect(outcome.remediation).toContain('npu-smi set -t reset -i 2 -c 0   # with the workload stopped: the pages pending isolation are isolated at the reset');
  });

  it('64 retired pages: the isolation table is full, replace-part; 16 to 63 only warn: monitor', async () => {
    const retired = (pages: number) => RETIRED.replace(/(HBM Double Bit Error Count\s+: )3/, '$10').replace(/(HBM Double Bit Isolated Pages Count\s+: )2/, `$1${pages}`);
    const full = await runOn(check, npuHost({ commands: eccCommands(A2, { 5: retired(64) }) }));
    expect(full.outcome.status).toBe('fail');
    expect(full.outcome.action).toBe('replace-part');
    expect(full.outcome.message).toContain('NPU 5: 64 HBM pages retired: the isolation table is full (64), the card needs repair; 64 HBM pages retired (16 or more)');
    expect(full.outcome.remediation!.split('\n')[0]).toBe('have the card of NPU 5 repaired or replaced: its HBM can isolate no more pages');
    const high = await runOn(check, npuHost({ commands: eccCommands(A2, { 5: retired(20) }) }));
    expect(high.outcome.status).toBe('warn');
    expect(high.outcome.action).toBe('monitor');
    expect(high.outcome.message).toBe('HBM to watch: NPU 5: 20 HBM pages retired (16 or more)');
    const few = await runOn(check, npuHost({ commands: eccCommands(A2, { 5: retired(3) }) }));
    expect(few.outcome.status).toBe('pass');
    expect(few.outcome.message).toBe('HBM of 8 NPU devices: no uncorrectable error since the driver loaded, no page pending isolation; NPU 5: 3 pages retired before and 12 corrected errors');
  });

  it('a failing chip outside ASCEND_RT_VISIBLE_DEVICES only warns, and keeps its action', async () => {
    const { outcome } = await runOn(check, npuHost({ env: { ASCEND_RT_VISIBLE_DEVICES: '0,1,2,3' }, commands: eccCommands(A2, { 5: RETIRED }) }));
    expect(outcome.status).toBe('warn');
    expect(outcome.action).toBe('isolate-npu');
    expect(outcome.message).toMatch(/^1 NPU device outside ASCEND_RT_VISIBLE_DEVICES with failing HBM: NPU 5: /);
  });

  it('outside the workload\'s devices a failing chip and a chip to watch are each said so', async () => {
    const retired20 = cleanEccAnswer(2).replace(/(HBM Double Bit Isolated Pages Count\s+: )0/, '$120');
    const { outcome } = await runOn(check, npuHost({ env: { ASCEND_RT_VISIBLE_DEVICES: '0,1,2,3' }, commands: eccCommands(A2, { 5: RETIRED, 2: retired20 }) }));
    expect(outcome.status).toBe('warn');
    expect(outcome.action).toBe('isolate-npu');
    expect(outcome.message).toBe(
      '1 NPU device outside ASCEND_RT_VISIBLE_DEVICES with failing HBM: NPU 5: 3 uncorrectable (double-bit) HBM errors since the driver loaded, 2 pages retired; HBM to watch: NPU 2: 20 HBM pages retired (16 or more)',
    );
    expect(outcome.remediation!.split('\n')).toContain('npu-smi info -t ecc -i 2   # watch the retired pages: at 64 the card needs repair');
  });

  it('a card that cannot be read is an error naming the call; a driver that does not support the query skips', async () => {
    const broken = await runOn(check, npuHost({ commands: eccCommands(A2, { 3: { timedOut: true } }) }));
    expect(broken.outcome.status).toBe('error');
    expect(broken.outcome.message).toContain('the ECC counters of 1 card could not be read: "/usr/local/bin/npu-smi info -t ecc -i 3" did not finish within 1000 ms');
    expectRemediation(broken.outcome);
    const empty = await runOn(check, npuHost({ commands: eccCommands(A2, { 4: 'Command or option is not found.\n' }) }));
    expect(empty.outcome.status).toBe('error');
    expect(empty.outcome.message).toContain('"/usr/local/bin/npu-smi info -t ecc -i 4" printed no ECC counter');
    const unsupported = Object.fromEntries(A2.map((card) => [card, { stdout: 'This device does not support querying ecc.\n', exitCode: 255 }]));
    const skipped = await runOn(check, npuHost({ commands: eccCommands(A2, unsupported) }));
    expect(skipped.outcome.status).toBe('skip');
    expect(skipped.outcome.message).toBe('this driver does not report ECC counters (npu-smi info -t ecc: not supported)');
  });

  it('a snapshot recorded without npu-smi info -t ecc: skipped, in the run\'s language, with the re-recording as the fix', async () => {
    const notCaptured = Object.fromEntries(A2.map((card) => [card, { failure: 'not captured in the snapshot' }]));
    const { outcome } = await runOn(check, npuHost({ commands: eccCommands(A2, notCaptured) }), {}, { lang: 'zh' });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toBe('快照中没有 npu-smi info -t ecc 的输出：录制快照时还没有这项检查');
    expectRemediation(outcome);
  });

  it('a failing chip is reported even when another card could not be read', async () => {
    const { outcome } = await runOn(check, npuHost({ commands: eccCommands(A2, { 5: RETIRED, 3: { timedOut: true } }) }));
    expect(outcome.status).toBe('fail');
    expect((outcome.evidence as { unread: unknown[] }).unread).toHaveLength(1);
  });

  it('A3: one call per card, each chip of the card judged as its device (derived two-chip answer)', async () => {
    const twoChips = syntheticFixture('npu-smi-info-t-ecc-two-chips-derived.txt');
    // chip 1's HBM: its block follows chip 0's Chip ID line
    const cut = twoChips.indexOf('\n\n', twoChips.indexOf('Chip ID'));
    const bad = twoChips.slice(0, cut) + twoChips.slice(cut).replace(/(HBM Double Bit Error Count\s+: )0/, '$11');
    const cards = [0, 1, 2, 3, 4, 5, 6, 7];
    const answers = Object.fromEntries(cards.map((card) => [card, (card === 2 ? bad : twoChips).replace(/(NPU ID\s+: )0/, `$1${card}`)]));
    const spec = npuHost({ info: ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'), devices: [...Array(16).keys()], commands: eccCommands(cards, answers) });
    const { outcome, host } = await runOn(check, spec);
    expect(host.calls.filter((argv) => argv.includes('ecc'))).toHaveLength(8);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 of 16 NPU devices the workload uses has failing HBM: device 5 (NPU 2 chip 1): 1 uncorrectable (double-bit) HBM error since the driver loaded');
  });

  it('the 310P keeps the model in DDR: skipped without a call', async () => {
    const { outcome, host } = await runOn(check, npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt') }));
    expect(outcome.status).toBe('skip');
    expect(host.calls.filter((argv) => argv.includes('ecc'))).toEqual([]);
    expectRemediation(outcome);
  });

  it('is an error when npu-smi is missing', async () => {
    const { outcome } = await runOn(check, npuHost({ missing: [NPU_SMI] }));
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

import { describe, expect, it } from 'vitest';
// @ts-expect-error the benchmark is plain JavaScript without declarations
import { queueTimeline } from '../../bench/measurements/floor.mjs';

/**
 * Where the hccn_tool queue of a run waited, as the floor measurement prints it from the
 * simulated tools' log: offsets of the first npu-smi and hccn_tool call from the start, and
 * the idle time between one hccn_tool call's end and the next one's start.
 */

const call = (tool: string, startMs: number, ms: number, outcome = 'ok') => ({ tool, outcome, args: [], startMs, ms });

describe('the floor measurement\'s queue timeline', () => {
  it('measures the first calls from the start and the gaps between serialized hccn_tool calls, busy answers left out', () => {
    const calls = [
      call('hccn_tool', 1_000_130, 10),
      call('npu-smi', 1_000_100, 50),
      call('hccn_tool', 1_000_120, 5, 'busy'),
      call('hccn_tool', 1_000_142, 10),
      call('npu-smi', 1_000_160, 400),
      call('hccn_tool', 1_000_172, 10),
      call('hccn_tool', 1_000_182, 10),
    ];
    const timeline = queueTimeline(calls, 1_000_000);
    expect(timeline.firstNpuSmiMs).toBe(100);
    expect(timeline.firstHccnMs).toBe(130);
    // gaps: 142 - 140 = 2, 172 - 152 = 20, 182 - 182 = 0
    expect(timeline.gapTotalMs).toBe(22);
    expect(timeline.gapMedianMs).toBe(2);
    expect(timeline.gapP90Ms).toBe(20);
  });

  it('reports no offset when a run made no call of a tool', () => {
    const timeline = queueTimeline([call('npu-smi', 50, 10)], 0);
    expect(timeline.firstNpuSmiMs).toBe(50);
    expect(Number.isNaN(timeline.firstHccnMs)).toBe(true);
    expect(timeline.gapTotalMs).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { davinciIds, devicesBeforeNpuSmi } from '../../../src/parsers/device-nodes.js';

describe('davinciIds: the NPU device nodes among the names of /dev', () => {
  it('takes davinciN only, sorted, without the control devices or ids hccn_tool is never asked about', () => {
    expect(davinciIds(['null', 'davinci_manager', 'davinci10', 'davinci2', 'devmm_svm', 'davinci0', 'davinci2', 'davinci64', 'davinci7x', 'hisi_hdc'])).toEqual([0, 2, 10]);
    expect(davinciIds([])).toEqual([]);
  });
});

describe('devicesBeforeNpuSmi: the devices to ask hccn_tool about while npu-smi lists them', () => {
  it('the device nodes when there are any: a container sees its own, whatever the host\'s hccn.conf configures', () => {
    expect(devicesBeforeNpuSmi({ nodes: [6, 4, 5, 7], configured: [0, 1, 2, 3, 4, 5, 6, 7], visible: null })).toEqual([4, 5, 6, 7]);
  });

  it('else the devices hccn.conf configures (a --root tree without device nodes)', () => {
    expect(devicesBeforeNpuSmi({ nodes: [], configured: [3, 1, 2, 0, 1], visible: null })).toEqual([0, 1, 2, 3]);
    expect(devicesBeforeNpuSmi({ nodes: [], configured: [], visible: null })).toEqual([]);
  });

  it('of those, the visible ones by rank, as ASCEND_RT_VISIBLE_DEVICES counts them; ranks beyond the devices are none', () => {
    expect(devicesBeforeNpuSmi({ nodes: [4, 5, 6, 7], configured: [], visible: [0, 1] })).toEqual([4, 5]);
    expect(devicesBeforeNpuSmi({ nodes: [], configured: [0, 1, 2, 3, 4, 5, 6, 7], visible: [2, 3, 9] })).toEqual([2, 3]);
    expect(devicesBeforeNpuSmi({ nodes: [0, 1], configured: [], visible: [-1, 1.5, 1] })).toEqual([1]);
  });
});

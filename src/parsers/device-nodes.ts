/**
 * Which NPU devices a node has, as far as it can be told before `npu-smi info` answers (on a real
 * node the DCMI start-up makes that take 0.4 to 1 s): the device nodes /dev/davinciN, the devices
 * /etc/hccn.conf configures, and ASCEND_RT_VISIBLE_DEVICES, which counts the devices this host or
 * container sees. Only a head start for hccn_tool's queue: the checks judge the devices npu-smi
 * lists, whatever this guessed.
 */

/** The highest device id qprep passes to `hccn_tool -i` (isDeviceId). */
const MAX_DEVICE_ID = 63;

/** The N of every `davinciN` among the names of /dev, sorted (davinci_manager is no device). */
export function davinciIds(names: readonly string[]): number[] {
  const ids = names.map((name) => /^davinci(\d{1,2})$/.exec(name)?.[1]).filter((id): id is string => id !== undefined).map(Number);
  return [...new Set(ids)].filter((id) => id <= MAX_DEVICE_ID).sort((a, b) => a - b);
}

export interface DevicesSeen {
  /** the ids of /dev/davinciN: what this host or container sees */
  nodes: readonly number[];
  /** the devices /etc/hccn.conf configures (host-wide, also inside a container that sees fewer) */
  configured: readonly number[];
  /** the ids of ASCEND_RT_VISIBLE_DEVICES (or the profile's npu.visibleDevices): ranks among the devices seen; null for all */
  visible: readonly number[] | null;
}

/**
 * The devices to ask first, in order: the device nodes when there are any (a container sees only
 * its own), else the devices hccn.conf configures; of those, the visible ones by rank, as the
 * runtime counts them (ASCEND_RT_VISIBLE_DEVICES=0,1 with /dev/davinci4 and 5 means 4 and 5).
 */
export function devicesBeforeNpuSmi(seen: DevicesSeen): number[] {
  const nodes = [...new Set(seen.nodes)].sort((a, b) => a - b);
  const base = nodes.length > 0 ? nodes : [...new Set(seen.configured)].sort((a, b) => a - b);
  const devices = base.filter((id) => Number.isInteger(id) && id >= 0 && id <= MAX_DEVICE_ID);
  if (!seen.visible) return devices;
  return [...new Set(seen.visible)].filter((rank) => Number.isInteger(rank) && rank >= 0 && rank < devices.length).map((rank) => devices[rank]!);
}

import type { Check } from '../src/core/types.js';
import cpuGovernor from './cpu.governor.js';
import hostDisk from './host.disk.js';
import hostMemory from './host.memory.js';
import hostModel from './host.model.js';
import hostShm from './host.shm.js';
import hccnConf from './hccn.conf.js';
import hccnGateway from './hccn.gateway.js';
import hccnIp from './hccn.ip.js';
import hccnLink from './hccn.link.js';
import hccnLldp from './hccn.lldp.js';
import hccnNetHealth from './hccn.net-health.js';
import hccnNetdetect from './hccn.netdetect.js';
import hccnPeers from './hccn.peers.js';
import hccnSpod from './hccn.spod.js';
import hccnTls from './hccn.tls.js';
import launchDevices from './launch.devices.js';
import launchEnv from './launch.env.js';
import launchFlags from './launch.flags.js';
import launchNetwork from './launch.network.js';
import launchPlaceholders from './launch.placeholders.js';
import launchPorts from './launch.ports.js';
import launchScript from './launch.script.js';
import memJemalloc from './mem.jemalloc.js';
import modelWeights from './model.weights.js';
import netHostNic from './net.host-nic.js';
import netPeerPorts from './net.peer-ports.js';
import netPorts from './net.ports.js';
import netProxy from './net.proxy.js';
import npuCann from './npu.cann.js';
import npuCount from './npu.count.js';
import npuDevices from './npu.devices.js';
import npuDriverFiles from './npu.driver-files.js';
import npuDriverVersion from './npu.driver-version.js';
import npuFirmwareVersion from './npu.firmware-version.js';
import npuHealth from './npu.health.js';
import npuIdle from './npu.idle.js';
import npuSmi from './npu.smi.js';
import npuTools from './npu.tools.js';
import pythonTritonAscend from './python.triton-ascend.js';
import schedMigrationCost from './sched.migration-cost.js';
import sysctlNumaBalancing from './sysctl.numa-balancing.js';
import sysctlSwappiness from './sysctl.swappiness.js';
import tuneJournal from './tune.journal.js';

/**
 * The catalogue, in report order. Each check lives in its own file named after its id; a test
 * keeps this list, the directory and the ids in step.
 */
export const catalogue: readonly Check[] = [
  cpuGovernor,
  sysctlSwappiness,
  sysctlNumaBalancing,
  schedMigrationCost,
  memJemalloc,
  tuneJournal,
  hostModel,
  hostShm,
  hostMemory,
  hostDisk,
  netProxy,
  netPorts,
  netHostNic,
  netPeerPorts,
  npuTools,
  npuDevices,
  npuDriverFiles,
  npuSmi,
  npuCount,
  npuHealth,
  npuIdle,
  npuDriverVersion,
  npuFirmwareVersion,
  npuCann,
  hccnConf,
  hccnIp,
  hccnLink,
  hccnNetHealth,
  hccnNetdetect,
  hccnGateway,
  hccnLldp,
  hccnTls,
  hccnSpod,
  hccnPeers,
  launchScript,
  launchPlaceholders,
  launchNetwork,
  launchDevices,
  launchPorts,
  launchEnv,
  launchFlags,
  modelWeights,
  pythonTritonAscend,
];

import type { Catalogue } from '../en/index.js';
import { cli } from './cli.js';
import { commands } from './commands.js';
import { errors } from './errors.js';
import { probes } from './probes.js';
import { report } from './report.js';
import { knowledgeProbes } from './knowledge.js';
import { hccn } from './checks/hccn.js';
import { host } from './checks/host.js';
import { knowledge } from './checks/knowledge.js';
import { launch, launchProbes } from './checks/launch.js';
import { net } from './checks/net.js';
import { npu } from './checks/npu.js';
import { tuning } from './checks/tuning.js';

/** 中文目录：每个键、每条消息的参数都与英文相同，由类型检查保证。 */
export const zh: Catalogue = {
  report,
  cli,
  errors,
  probes: { ...probes, launch: launchProbes, ...knowledgeProbes },
  commands,
  checks: { ...tuning, ...host, ...net, ...npu, ...hccn, ...launch, ...knowledge },
};

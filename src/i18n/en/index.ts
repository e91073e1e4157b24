import type { CheckId } from '../../core/ids/checks.js';
import type { CheckText } from '../types.js';
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

/**
 * The English catalogue, the reference: its shape is the type every other language must match
 * (src/i18n/README.md). Add text to the section files, never here.
 */
export const en = {
  report,
  cli,
  errors,
  probes: { ...probes, launch: launchProbes, ...knowledgeProbes },
  commands,
  // every check id has its entry: a check without one does not compile
  checks: { ...tuning, ...host, ...net, ...npu, ...hccn, ...launch, ...knowledge } satisfies Record<CheckId, CheckText>,
};

/** The shape of a catalogue: every key and every message's parameters, as English has them. */
export type Catalogue = typeof en;

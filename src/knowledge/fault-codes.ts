import { z } from 'zod';
import faultCodesJson from '../../knowledge/fault-codes.json' with { type: 'json' };
import { ACTIONS } from '../core/ids/actions.js';
import { sourceSchema, type KnowledgeSource } from './source.js';
import { knowledgeTable } from './table.js';

/**
 * The handling levels of the Ascend device plugin, mildest first (the reverse of the order its
 * GetFaultTypeByCode tests them in): the worst of several codes is the one furthest down.
 * scripts/fault-codes-lib.mjs holds the same order and the action of each level.
 */
export const FAULT_LEVELS = ['NotHandleFault', 'SubHealthFault', 'RestartRequest', 'RestartBusiness', 'FreeRestartNPU', 'RestartNPU', 'PreSeparateNPU', 'SeparateNPU'] as const;
export type FaultLevel = (typeof FAULT_LEVELS)[number];

const inBothLanguages = z.object({ en: z.string().min(1), zh: z.string().min(1) }).strict();

/** knowledge/fault-codes.json: one row per code of the device plugin's fault-code table. */
const faultCodeRowSchema = z
  .object({
    /** upper-case hexadecimal, without 0x or leading zeros */
    code: z.string().regex(/^[1-9A-F][0-9A-F]*$/),
    level: z.enum(FAULT_LEVELS),
    /** other levels the table also lists the code under (the worst is `level`) */
    alsoIn: z.array(z.enum(FAULT_LEVELS)).optional(),
    action: z.enum(ACTIONS),
    /** the fault's name, where the fault-diagnosis knowledge graph has one */
    meaning: inBothLanguages.optional(),
    description: inBothLanguages.optional(),
    /** the line of the fault-code table that lists the code */
    source: sourceSchema,
    /** the line of the knowledge graph that names it */
    meaningSource: sourceSchema.optional(),
  })
  .strict();

export type FaultCodeRow = z.infer<typeof faultCodeRowSchema>;

export const faultCodesTable = knowledgeTable('fault-codes', faultCodesJson, faultCodeRowSchema);

/**
 * A fault code as npu-smi prints it (`80E18005`, `%04X`: at least 4 digits), as the device
 * plugin's logs and the docs write it (`0x80E18005`, `0x80e18005`): upper case, without 0x or
 * leading zeros. Undefined for anything that is not 1 to 16 hexadecimal digits.
 */
export function normalizeFaultCode(text: string): string | undefined {
  const match = /^(?:0x)?([0-9a-f]{1,16})$/i.exec(text.trim());
  if (!match) return undefined;
  return match[1]!.toUpperCase().replace(/^0+(?=.)/, '');
}

let byCode: Map<string, FaultCodeRow> | undefined;

/** The table's row of a code in any form npu-smi or the docs print, or undefined: a code the table does not list. */
export function faultCodeOf(text: string): FaultCodeRow | undefined {
  byCode ??= new Map(faultCodesTable.rows().map((row) => [row.code, row]));
  const code = normalizeFaultCode(text);
  return code === undefined ? undefined : byCode.get(code);
}

/** Where the table comes from: the repository, the commit and the two files, for a person to follow. */
export function faultTableSource(): { repo: string; ref: string; paths: string[] } {
  const rows = faultCodesTable.rows();
  const first: KnowledgeSource = rows[0]!.source;
  const paths = new Set<string>([first.path!]);
  for (const row of rows) if (row.meaningSource?.path) paths.add(row.meaningSource.path);
  return { repo: first.repo!, ref: first.ref!, paths: [...paths] };
}

export interface JudgedFault {
  /** as printed */
  code: string;
  row: FaultCodeRow | undefined;
}

/**
 * The worst of some codes: the one of the highest level (the first of them when two share it),
 * as the device plugin judges a chip with several faults; undefined when the table lists none.
 */
export function worstFault(codes: readonly string[]): (JudgedFault & { row: FaultCodeRow }) | undefined {
  let worst: (JudgedFault & { row: FaultCodeRow }) | undefined;
  for (const code of codes) {
    const row = faultCodeOf(code);
    if (row && (!worst || FAULT_LEVELS.indexOf(row.level) > FAULT_LEVELS.indexOf(worst.row.level))) worst = { code, row };
  }
  return worst;
}

/** Where the table comes from: the repository and the two files of it. */
export const SOURCE_REPO: string;
export const LEVELS_PATH: string;
export const MEANINGS_PATH: string;
/** The handling levels, mildest first, each with its list in faultCode.json and the action qprep recommends. */
export const LEVELS: ReadonlyArray<{ level: string; key: string; action: string }>;
/** "0x80e18005" -> "80E18005"; undefined for anything that is not hexadecimal. */
export function normalizeCode(text: string): string | undefined;
/** The extract of the two files' texts at a commit. */
export function extractFaultCodeSources(input: { levelsText: string; meaningsText: string; commit: string; date: string }): FaultCodeExtract;
/** The extract as its file holds it. */
export function formatExtract(extract: FaultCodeExtract): string;
/** The text of knowledge/fault-codes.json. */
export function buildFaultCodes(extract: FaultCodeExtract): string;

export interface FaultCodeExtract {
  repo: string;
  commit: string;
  date: string;
  description: string;
  levels: { path: string; lines: Array<[number, string]> };
  meanings: { path: string; entries: Array<{ code: string; key: string; line: number; fields: Record<string, [number, string]> }> };
}

/** The tables the build writes, in order. */
export const TABLES: readonly string[];
/** Every table's file text, built from the extract (knowledge/sources/vllm-ascend.json) and the reviewed tables. */
export function buildKnowledge(extract: unknown, reviewed: { models: unknown; rules: unknown; quantization: unknown }): Record<string, string>;
/** <0, 0 or >0 in PEP 440 order of vllm-ascend's tags; main after every tag. */
export function compareVersions(a: string, b: string): number;
/** The lines of a file that a part of the extract keeps, 1-based. */
export function selectLines(part: string, text: string, context?: Record<string, unknown>): Array<[number, string]>;
/** Does a rule's match take this file? */
export function ruleTakes(match: { paths: string[] }, path: string): boolean;

export const INDEX_FILE: string;
export const IDS_FILE: string;
/** The check ids: the names of the .ts files of checks/ other than the index, sorted. */
export function checkIds(repo?: string): string[];
export function renderIndex(ids: readonly string[]): string;
export function renderIds(ids: readonly string[]): string;
/** The generated files as they should be, by path from the repository's root. */
export function renderAll(repo?: string): Record<string, string>;

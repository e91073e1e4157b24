export const REPO: string;
export const TABLE_START: string;
export const TABLE_END: string;
export interface FitCase {
  id: string;
  title: string;
  outcome: 'started' | 'refused';
  check?: 'launch.env';
  endToEnd?: boolean;
  script: string;
  printed: Array<Record<string, unknown>>;
  [key: string]: unknown;
}
export function loadCases(): { description: string; cases: FitCase[]; notRebuilt: Array<{ id: string; source: string; why: string }> };
export function deriveTable(text: string, options?: { used?: Array<[number, number]>; usedAll?: number; total?: number }): string;
export function caseHost(c: FitCase): Record<string, unknown>;
export interface AccuracyRow {
  id: string;
  label: string;
  title: string;
  status: string;
  outcome: 'started' | 'refused';
  printed?: string;
  predicted?: string;
  error?: number | null;
  fromMemory?: number;
  fromMemoryError?: number | null;
  refusedPredicted?: boolean;
  note?: string;
}
export function measure(c: FitCase, outcome: { status: string; message: string; evidence?: Record<string, unknown> }): AccuracyRow[];
export function renderAccuracy(rows: AccuracyRow[], notRebuilt: Array<{ id: string; source: string; why: string }>): string;
export function replaceTable(page: string, table: string): string;

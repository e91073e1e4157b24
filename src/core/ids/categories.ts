/**
 * The report's groups, in report order: the ids the JSON report, `--only`/`--skip` and the
 * profiles use. Their headings are text, in the catalogue (`report.categories`, typed by these
 * ids). This folder imports nothing: the catalogue below the engine is typed by it.
 */
export const CATEGORY_IDS = ['tuning', 'host', 'network', 'npu', 'hccn', 'launch'] as const;

export type Category = (typeof CATEGORY_IDS)[number];

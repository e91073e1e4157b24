/** The text of list, explain, tune, rollback, env, aggregate, facts and serve. */
export const commands = {
  list: {
    columns: { id: 'ID', level: 'LEVEL', category: 'CATEGORY', title: 'TITLE' },
    category: (p: { key: string; heading: string }) => `${p.key} (${p.heading})`,
    selectors: (p: { categories: string }) => `--only and --skip take ids, id prefixes (npu, hccn) and categories: ${p.categories}`,
  },
  explain: {
    heading: (p: { id: string; title: string }) => `${p.id}: ${p.title}`,
    /** English paragraphs are wrapped at spaces; Chinese has none to break at and is printed whole */
    wrapParagraphs: true,
    category: (p: { category: string; level: string; required: boolean }) =>
      `category: ${p.category} · level: ${p.level}${p.required ? ' (a fail or error makes the node not ready)' : ' (a fail is reported as a warning)'}`,
    why: 'Why it matters:',
    reads: 'What it reads:',
    fix: 'How to fix a failure:',
  },
};

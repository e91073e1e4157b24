/** The text of list, explain, tune, rollback, env, aggregate, facts and serve. */
export const commands = {
  list: {
    columns: { id: 'ID', level: 'LEVEL', category: 'CATEGORY', title: 'TITLE' },
    category: (p: { key: string; heading: string }) => `${p.key} (${p.heading})`,
    selectors: (p: { categories: string }) => `--only and --skip take ids, id prefixes (npu, hccn) and categories: ${p.categories}`,
  },
  /** the comments of `qprep env`'s shell lines (the lines themselves never change) */
  env: {
    header: (p: { hostname: string; profile: string }) => `# qprep env for ${p.hostname} (profile ${p.profile}); load it with: source <(qprep env)`,
    node: (p: { ip: string; nic: string; source: string }) => `# node address ${p.ip} on ${p.nic} (${p.source})`,
    note: (p: { note: string }) => `# note: ${p.note}`,
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

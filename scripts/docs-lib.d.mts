/** The pages with generated parts: README.md and every page of docs/. */
export function pages(): string[];
/** The page with its samples (and, for docs/checks.md, the check table and reference) regenerated. */
export function regenerate(page: string, name: string): string;
export const REPO: string;

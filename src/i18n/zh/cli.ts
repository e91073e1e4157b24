import type { cli as en } from '../en/cli.js';

export const cli: typeof en = {};

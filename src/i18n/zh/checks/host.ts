import type { host as en } from '../../en/checks/host.js';

export const host: typeof en = {};

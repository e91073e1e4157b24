import type { tuning as en } from '../../en/checks/tuning.js';

export const tuning: typeof en = {};

import type { hccn as en } from '../../en/checks/hccn.js';

export const hccn: typeof en = {};

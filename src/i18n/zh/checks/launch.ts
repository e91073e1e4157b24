import type { launch as en } from '../../en/checks/launch.js';

export const launch: typeof en = {};

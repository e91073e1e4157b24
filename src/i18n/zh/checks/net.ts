import type { net as en } from '../../en/checks/net.js';

export const net: typeof en = {};

import type { commands as en } from '../en/commands.js';

export const commands: typeof en = {};

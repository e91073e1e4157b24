import type { errors as en } from '../en/errors.js';

export const errors: typeof en = {};

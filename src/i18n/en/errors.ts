/** The error documents' message and hint, and the usage errors (their codes never change). */
export const errors = {};

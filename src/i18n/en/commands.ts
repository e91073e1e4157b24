/** The text of tune, rollback, env, aggregate, facts and serve. */
export const commands = {};

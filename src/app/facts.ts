import { createContext } from '../core/runner.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost } from '../host/limited.js';
import { buildFacts, factsContributorsWith, type InventoryDisclosure } from '../facts/build.js';
import { factsSchema, type Facts } from '../facts/schema.js';
import { DEFAULT_TIMEOUT_MS, openHost, profileFor, type HostOptions } from './session.js';
import type { Lang } from '../i18n/lang.js';

/** `qprep facts`: the facts document of the host (or snapshot) the options name. */
export async function gatherFacts(options: HostOptions & InventoryDisclosure & { lang?: Lang }): Promise<Facts> {
  const handle = await openHost(options);
  const loaded = await profileFor(options.profile, handle, options.lang);
  const host = new LimitedHost(handle.host, 8, DEFAULT_TOOL_LIMITS);
  // the problems are said in the run's language; every other field is the same in all of them
  const ctx = createContext({ host, profile: loaded.profile, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, lang: options.lang ?? 'en' });
  const facts = await buildFacts(ctx, factsContributorsWith({ includeSerial: options.includeSerial === true, includeMac: options.includeMac === true }));
  // the contract is checked on the way out, as for the report
  const valid = factsSchema.safeParse(facts);
  if (!valid.success) throw new Error(`facts do not match their schema: ${valid.error.issues[0]?.message ?? ''}`);
  return facts;
}

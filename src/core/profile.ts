import { yamlErrorReason } from '../util/position.js';
import { closest } from '../util/suggest.js';
import { prototypeKeyProblem } from '../util/prototype-keys.js';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { builtinProfiles } from '../profiles/index.js';
import { isAscendVersion } from '../util/ascend-version.js';
import { parseDuration } from '../util/duration.js';
import { parseSize } from '../util/size.js';
import { describeZodError } from '../util/zod-error.js';
import { QprepError } from '../errors.js';
import { spokenError } from '../i18n/spoken-error.js';

/** A byte size: a number of bytes or a string such as "1GiB", "16g", "500GB". */
const size = z
  .union([z.number().nonnegative(), z.string()])
  .refine((value) => parseSize(value) !== undefined, {
    message: 'expected a size such as 1GiB, 16g, 500GB or a number of bytes',
  })
  .transform((value) => parseSize(value)!);

/** The longest budget a profile may give: timers cannot wait longer than about 24.8 days anyway. */
const MAX_BUDGET_MS = 24 * 3_600_000;

/** A duration as operators write one, "10m", "90s", "1h30m", or a number of milliseconds; at most 24h. */
const duration = z
  .union([z.number().int().positive(), z.string()])
  .refine((value) => ((typeof value === 'number' ? value : parseDuration(value)) ?? Infinity) <= MAX_BUDGET_MS, {
    message: 'expected a duration such as 90s, 10m or 1h30m (or milliseconds), at most 24h',
  })
  .transform((value) => (typeof value === 'number' ? value : parseDuration(value)!));

const port = z.number().int().min(1).max(65535);

/** A port or an inclusive range "60000-60015". */
const portSpec = z.union([
  port,
  z
    .string()
    .regex(/^\d+-\d+$/, { message: 'expected a port number or a range such as "60000-60015"' })
    .refine(
      (value) => {
        const [low, high] = value.split('-').map(Number) as [number, number];
        return low >= 1 && high <= 65535 && low <= high;
      },
      { message: 'range must be within 1-65535 and low <= high' },
    ),
]);

const checkIdPattern = /^[a-z0-9]+(\.[a-z0-9-]+)+$/;
const checkId = z.string().regex(checkIdPattern, { message: 'expected a check id such as sysctl.swappiness' });

const waiver = z
  .object({
    id: checkId,
    reason: z.string().min(1, { message: 'a waiver needs a reason' }),
    expires: z.iso.date({ message: 'expected a date YYYY-MM-DD' }).optional(),
  })
  .strict();

const tuning = z
  .object({
    /** cpufreq governor every online CPU must use */
    cpuGovernor: z.string().regex(/^[a-z0-9_-]+$/).default('performance'),
    /** vm.swappiness: pass at or below max; tune writes target */
    swappiness: z
      .object({ target: z.number().int().min(0).max(200).default(0), max: z.number().int().min(0).max(200).default(1) })
      .strict()
      .refine((v) => v.target <= v.max, { message: 'expected target <= max' })
      .prefault({}),
    /** kernel.numa_balancing */
    numaBalancing: z.object({ target: z.number().int().min(0).max(3).default(0) }).strict().prefault({}),
    /** kernel.sched_migration_cost_ns: pass within [min, max]; tune writes target */
    schedMigrationCostNs: z
      .object({
        target: z.number().int().min(0).default(50000),
        min: z.number().int().min(0).default(50000),
        max: z.number().int().min(0).default(100000),
      })
      .strict()
      .refine((v) => v.min <= v.target && v.target <= v.max, { message: 'expected min <= target <= max' })
      .prefault({}),
  })
  .strict();

const host = z
  .object({
    /** minimum size of /dev/shm (docker run --shm-size) */
    shmMin: size.prefault('1GiB'),
    /** minimum MemAvailable */
    memoryMinAvailable: size.prefault('16GiB'),
    /** directories that must have free space: where the weights are downloaded */
    disk: z
      .array(z.object({ path: z.string().startsWith('/', { message: 'expected an absolute path' }), minFree: size }).strict())
      .prefault([{ path: '/root/.cache', minFree: '50GiB' }]),
    /** TCP ports that must be free before launch: the API port, the DP RPC port, ... */
    ports: z.array(portSpec).default([8000]),
    /**
     * HCCL listens on HCCL_IF_BASE_PORT (default 60000) plus one port per device; this many
     * ports from the base must be free.
     */
    hcclPortCount: z.number().int().min(0).max(64).default(16),
    /**
     * The NIC of the HCCL, Gloo and TP sockets: on a deployment of two or more nodes,
     * net.host-nic warns when it links slower than this (a 1 GbE management port instead of the
     * 25/100 GbE data NIC).
     */
    nic: z.object({ minSpeedMbps: z.number().int().min(0).max(10_000_000).default(25000) }).strict().prefault({}),
  })
  .strict();

const hccn = z
  .object({
    /**
     * hccn_tool commands running at once on this host (--hccn-concurrency overrides it). The
     * tool answers "busy" when run concurrently, so 1 is the safe value.
     */
    concurrency: z.number().int().min(1).max(16).default(1),
    /** how often a "hccn_tool is busy" answer is retried, pausing 100 ms, 200 ms, ... up to 1.6 s */
    busyRetries: z.number().int().min(0).max(10).default(5),
    /**
     * The whole time hccn.peers may spend on its ping plan. When it is spent no further ping
     * starts; the pairs not tried are listed, and the check fails since it could not vouch for them.
     */
    peersBudget: duration.prefault('10m'),
    /**
     * The deployment moves KV caches over the NPU network (PD disaggregation with Mooncake or
     * HIXL): those read /etc/hccn.conf and use the device IPs even on one host, so HCCN problems
     * block without --cluster too and hccn.conf must be mounted into the container. Otherwise a
     * single-node run reports HCCN problems as warnings: HCCL keeps to HCCS inside one box.
     */
    kvTransfer: z.boolean().default(false),
  })
  .strict();

/** An Ascend version as the vendor files write it: 25.5.0, 25.0.rc1.1, 8.5.0, 8.3.RC2. */
const ascendVersion = z
  // a YAML number would lose digits (25.10 reads as 25.1): versions are strings
  .string({ message: 'expected an Ascend version as a quoted string, such as "25.5.0" or "8.3.RC2"' })
  .refine((value) => isAscendVersion(value), { message: 'expected an Ascend version such as 25.5.0, 25.0.rc1.1 or 8.3.RC2' });

const npu = z
  .object({
    /** at least this many NPU devices (A2: 8, A3: 16 dies); 0 accepts any number from 1 */
    minCount: z.number().int().min(0).max(64).default(0),
    /** the product family the deployment is for; "any" accepts what is found */
    family: z.enum(['any', 'a2', 'a3', '310p']).default('any'),
    /**
     * The devices the workload will use, as ASCEND_RT_VISIBLE_DEVICES writes them ("0-7", "0,1");
     * empty: all. The environment variable wins when it is set where qprep runs.
     */
    visibleDevices: z
      .string()
      .regex(/^$|^\d{1,3}(-\d{1,3})?(,\d{1,3}(-\d{1,3})?)*$/, { message: 'expected device ids such as "0-7" or "0,1,4-7"' })
      .default(''),
    /**
     * Memory an idle NPU shows in use (driver and runtime reservations), in MB; more means
     * something holds the NPU. HBM on A2/A3 (idle 64 GB 910B show 2.9-4.4 GB), DDR on the 310P
     * (idle 300I Duo chips show 1.1-1.9 GB).
     */
    idleMemoryMB: z
      .object({ hbm: z.number().int().min(0).default(5120), ddr: z.number().int().min(0).default(3072) })
      .strict()
      .prefault({}),
    /**
     * Which `docker run` device and mount set the container must have: "standard" (A2, A3,
     * 300I Duo guides) or "200i-pro" (the 200I Pro guide); "auto" picks 200i-pro when
     * /dev/ascend_manager exists.
     */
    mountSet: z.enum(['auto', 'standard', '200i-pro']).default('auto'),
    /**
     * The oldest NPU driver (Ascend HDK, driver/version.info) the deployment runs on; older fails
     * npu.driver-version. Unset: no minimum.
     */
    minDriver: ascendVersion.optional(),
    /** The oldest CANN toolkit it runs on; older fails npu.cann (where CANN is installed). Unset: no minimum. */
    minCann: ascendVersion.optional(),
  })
  .strict();

/** What the deployment is, beyond one host: how many nodes, which role this node plays, how much load. */
const deployment = z
  .object({
    /**
     * Nodes the deployment spans (two A2 for the w8a8 model, three A3 for its 1P1D form). Two or
     * more make HCCN problems block on every node even without --cluster: the NPU network carries
     * the collectives (and KV transfers) between them.
     */
    nodes: z.number().int().min(1).max(4096).default(1),
    /**
     * The role of this node in a prefill/decode disaggregated deployment: launch.flags fails a
     * launch script whose kv_role says otherwise. "any": not checked.
     */
    role: z.enum(['any', 'prefill', 'decode']).default('any'),
    /**
     * Requests the service must run at once; launch.flags warns when --max-num-seqs x
     * --data-parallel-size is below it (the guide's rule). 0: not stated, not checked.
     */
    expectedConcurrency: z.number().int().min(0).max(10_000_000).default(0),
  })
  .strict();

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected an environment variable name such as HCCL_BUFFSIZE' });

/** What `qprep env` prints for the launch script. */
const launchEnv = z
  .object({
    /** exported as they are; null drops a variable the base profile sets */
    variables: z
      .record(envName, z.union([z.string(), z.number(), z.boolean()]).transform(String).nullable())
      .default({}),
    /** unset before launch (the guides unset the proxy variables) */
    unset: z.array(envName).default([]),
    /** export LD_PRELOAD with this host's libjemalloc.so.2 */
    preloadJemalloc: z.boolean().default(true),
  })
  .strict()
  .refine((env) => !env.unset.some((name) => env.variables[name] !== undefined && env.variables[name] !== null), {
    message: 'a variable cannot be both in env.variables and in env.unset',
  });

export const profileSchema = z
  .object({
    name: z.string().min(1).default('custom'),
    description: z.string().default(''),
    /** built-in profile this one starts from (default: "default") */
    extends: z.string().optional(),
    /** promote a check to required or demote it to recommended */
    levels: z.record(checkId, z.enum(['required', 'recommended'])).default({}),
    /** checks not to run, as --skip */
    skip: z.array(z.string()).default([]),
    /** accepted failures: reported as warn with the reason, until the expiry date */
    waivers: z.array(waiver).default([]),
    tuning: tuning.prefault({}),
    host: host.prefault({}),
    hccn: hccn.prefault({}),
    npu: npu.prefault({}),
    env: launchEnv.prefault({}),
    deployment: deployment.prefault({}),
  })
  .strict();

export type Profile = z.output<typeof profileSchema>;

export interface LoadedProfile {
  profile: Profile;
  /** "builtin" or the file path */
  source: string;
}

type Plain = Record<string, unknown>;

function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; arrays and scalars of the overlay replace the base. */
export function mergeProfiles(base: unknown, overlay: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(overlay)) return overlay === undefined ? base : overlay;
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(overlay)) out[key] = mergeProfiles(base[key], value);
  return out;
}

export function builtinProfileNames(): string[] {
  return Object.keys(builtinProfiles);
}

/** The built-in a profile starts from: its `extends`, else default (default itself: none). */
export function parentOf(loaded: LoadedProfile): string | null {
  if (loaded.source === 'builtin') return builtinEntry(loaded.profile.name)?.extends ?? (loaded.profile.name === 'default' ? null : 'default');
  return loaded.profile.extends ?? 'default';
}

/**
 * The built-in profile of that name, looked up among the profiles only: "__proto__",
 * "constructor" or "toString" name members every object inherits, not profiles.
 */
function builtinEntry(name: string): (typeof builtinProfiles)[string] | undefined {
  return Object.hasOwn(builtinProfiles, name) ? builtinProfiles[name] : undefined;
}

function builtinInput(name: string, seen: string[] = []): Plain {
  const entry = builtinEntry(name);
  if (!entry) {
    const match = closest(name, builtinProfileNames());
    throw spokenError('invalid-profile', (t) => `${t.unknownProfile({ name })}\n${match !== undefined ? t.didYouMean({ name: match }) : t.inputs.listShowsBuiltinProfiles}`);
  }
  if (seen.includes(name)) throw spokenError('invalid-profile', (t) => t.inputs.profileCycle({ name, through: seen.join(' -> ') }));
  // every built-in but default itself starts from default, as a profile file does
  const parentName = entry.extends ?? (name === 'default' ? undefined : 'default');
  const parent = parentName ? builtinInput(parentName, [...seen, name]) : {};
  return mergeProfiles(parent, { ...entry, name }) as Plain;
}

export function loadBuiltinProfile(name: string): LoadedProfile {
  const parsed = profileSchema.safeParse(builtinInput(name));
  if (!parsed.success) throw new Error(`built-in profile ${name} is invalid: ${describeZodError(parsed.error)}`);
  return { profile: parsed.data, source: 'builtin' };
}

/**
 * Parses a profile document (YAML or JSON text) read from `file`. Every problem is a
 * QprepError naming the file, the field path and what is wrong.
 */
export function parseProfileText(text: string, file: string): LoadedProfile {
  let document: unknown;
  try {
    document = parseYaml(text, { prettyErrors: false });
  } catch (error) {
    const reason = yamlErrorReason(error, text);
    throw spokenError('invalid-profile', (t) => t.inputs.profileNotYaml({ file, reason }));
  }
  if (!isPlainObject(document)) {
    throw spokenError('invalid-profile', (t) => t.inputs.profileNotMapping({ file }));
  }
  // refused before the merge, which would otherwise take it for the merged object's prototype
  const prototypeKey = prototypeKeyProblem(document);
  if (prototypeKey) throw spokenError('invalid-profile', (t) => t.inputs.invalidProfile({ file, detail: prototypeKey }));
  const baseName = typeof document.extends === 'string' ? document.extends : 'default';
  let base: Plain;
  try {
    base = builtinInput(baseName);
  } catch (error) {
    // the base's own error, in the run's language when it has the words
    const inner = error;
    throw spokenError('invalid-profile', (t, lang) => t.inputs.profileExtends({ file, reason: inner instanceof QprepError ? inner.wordsIn(lang).message : (inner as Error).message }));
  }
  const merged = mergeProfiles(base, { name: document.name ?? file.replace(/^.*\//, '').replace(/\.(ya?ml|json)$/, ''), ...document });
  const parsed = profileSchema.safeParse(merged);
  if (!parsed.success) {
    const detail = describeZodError(parsed.error);
    throw spokenError('invalid-profile', (t) => t.inputs.invalidProfile({ file, detail }));
  }
  return { profile: parsed.data, source: file };
}

/** Port specs expanded to a sorted list of ports. */
export function expandPorts(specs: ReadonlyArray<number | string>): number[] {
  const ports = new Set<number>();
  for (const spec of specs) {
    if (typeof spec === 'number') ports.add(spec);
    else {
      const [low, high] = spec.split('-').map(Number) as [number, number];
      for (let p = low; p <= high; p++) ports.add(p);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

import { z } from 'zod';

/**
 * The `qprep facts` document: this node's identity and NPU inventory, for Ansible
 * to gather into a cluster file and for `qprep check` to embed in its report. Adding optional
 * fields keeps schemaVersion 1.
 */

export const npuFactSchema = z.object({
  card: z.number().int().describe('npu-smi NPU id (npu-smi -i)'),
  chip: z.number().int().describe('chip (die) index on the card'),
  device: z.number().int().describe('physical device id: /dev/davinciN, hccn_tool -i N; the Phy-ID on A3'),
  visibleIndex: z.number().int().describe('the id ASCEND_RT_VISIBLE_DEVICES uses for this device here'),
  name: z.string(),
  health: z.string().describe('OK, Warning, Alarm, Critical, UNKNOWN'),
  busId: z.string().nullable(),
  memory: z
    .object({
      usedMB: z.number(),
      totalMB: z.number(),
      kind: z.enum(['hbm', 'ddr']).describe('HBM on A2/A3, DDR on the 310P'),
    })
    .nullable(),
  processes: z.array(
    z.object({
      pid: z.number().int(),
      name: z.string(),
      memoryMB: z.number().nullable(),
      containerPid: z.number().int().nullable(),
    }),
  ),
});

/**
 * NPU network addresses, from hccn_tool (the HCCN contributor): one entry per device that has a
 * RoCE address; a device without one is named in `problems` instead.
 */
export const deviceFactSchema = z.object({
  device: z.number().int().describe('physical device id, hccn_tool -i N'),
  ip: z.string().describe('RoCE address, hccn_tool -i N -ip -g'),
  netmask: z.string(),
  vnicIp: z.string().optional().describe('A3: vNIC address (hccn_tool -i N -vnic -g), the target of -hccs_ping'),
  tls: z.boolean().optional().describe('TLS switch of the device (hccn_tool -i N -tls -g): true when enabled'),
});

const nullableText = z.string().nullable();
const nullableCount = z.number().int().nullable();

/**
 * The machine itself (Host.inventory): DMI strings, CPUs, memory, NICs. null is "could not be
 * read" (see `unknown`) or, for a MAC, withheld (see `redacted`).
 */
export const inventoryFactSchema = z.object({
  source: z.enum(['systeminformation', 'root-files', 'none']).describe('systeminformation on the running system, or the files under --root'),
  system: z.object({
    manufacturer: nullableText.describe('DMI sys_vendor'),
    model: nullableText.describe('DMI product_name: "A800I A2" on an Atlas 800I A2'),
    serial: nullableText.optional().describe('DMI product_serial; only with --include-serial'),
    virtual: z.boolean().nullable(),
  }),
  bios: z.object({ vendor: nullableText, version: nullableText }),
  cpu: z.object({
    brand: nullableText,
    sockets: nullableCount,
    cores: nullableCount.describe('physical cores'),
    threads: nullableCount.describe('logical CPUs'),
    numaNodes: nullableCount,
  }),
  memoryBytes: z.number().nullable(),
  os: z.object({ distro: nullableText, release: nullableText }),
  nics: z
    .array(
      z.object({
        name: z.string(),
        mac: nullableText.describe('null unless --include-mac'),
        ipv4: nullableText,
        mtu: nullableCount,
        speedMbps: z.number().nullable(),
        duplex: nullableText,
        state: z.string().describe('kernel operstate'),
        virtual: z.boolean().nullable(),
      }),
    )
    .nullable(),
  nicsOmitted: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('NICs a report leaves out of nics: it lists 64, the physical ones first (the snapshot and qprep facts keep every one)'),
  redacted: z.array(z.enum(['serial', 'mac'])).describe('fields withheld: serial without --include-serial, MAC addresses without --include-mac'),
  unknown: z.array(z.object({ field: z.string(), reason: z.string() })).describe('fields that could not be read, and why'),
});

const packageFactSchema = z
  .object({
    version: z.string().describe("the Version its METADATA (or PKG-INFO) states, else the one its directory name carries"),
    path: z.string().describe('the .dist-info or .egg-info directory'),
    versionFrom: z.enum(['METADATA', 'PKG-INFO', 'directory name']),
    editable: z.string().nullable().describe('the source tree of an editable install (pip install -e, as the official images install vllm and vllm-ascend), else null'),
  })
  .nullable();

const componentFactSchema = z.object({ version: z.string(), path: z.string().describe('the file it was read from') });

/**
 * The software a launch would run on, read from files on the node (nothing imported or run):
 * the Python the launch script runs (or the vllm first on PATH), its distributions, the device
 * type vllm-ascend was built for, CANN and its components, driver and firmware, and what the
 * container tells of its image. null: not found (see searched).
 */
export const stackFactSchema = z.object({
  python: z.object({
    path: z.string().nullable().describe('the interpreter the launch script (or the vllm on PATH) runs'),
    via: z.string().describe('how it was found'),
    sitePackages: z.array(z.string()),
  }),
  packages: z.object({
    vllmAscend: packageFactSchema,
    vllm: packageFactSchema,
    torch: packageFactSchema,
    torchNpu: packageFactSchema,
    transformers: packageFactSchema,
    tritonAscend: packageFactSchema,
  }),
  vllmAscendBuild: z
    .object({ deviceType: z.string().nullable().describe("vllm_ascend/_build_info.py's __device_type__: A2, A3, _310P, A5"), path: z.string() })
    .nullable()
    .describe('the device type the installed vllm-ascend was built for (from v0.12.0rc1); it refuses to start on another'),
  cann: z.object({
    toolkit: componentFactSchema.extend({ arch: z.string().nullable() }).nullable().describe('the CANN toolkit: ascend_toolkit_install.info'),
    kernels: componentFactSchema.extend({ build: z.string().nullable() }).nullable().describe("the kernels package: the toolkit's opp_kernel/version.info (version_dir, Version)"),
    atb: componentFactSchema
      .extend({ build: z.string().nullable(), setEnv: z.string().nullable().describe('nnal/atb/set_env.sh, when present') })
      .nullable()
      .describe("NNAL's ATB: nnal/atb/latest/version.info"),
  }),
  driver: componentFactSchema.nullable().describe('driver/version.info'),
  firmware: componentFactSchema.nullable().describe('firmware/version.info'),
  image: z
    .object({ socVersion: z.string().nullable().describe('SOC_VERSION of the environment: the chip an official vllm-ascend image was built for') })
    .describe('what the container tells of its image; the official images record no tag'),
  searched: z.array(z.string()).describe('the paths that held nothing'),
});

export const factsSchema = z.object({
  schemaVersion: z.literal(1),
  hostname: z.string(),
  hostAddresses: z.array(z.string()).describe('host interface addresses, loopback and IPv6 link-local left out'),
  family: z.enum(['a2', 'a3', '310p', 'unknown']),
  npus: z.array(npuFactSchema),
  devices: z.array(deviceFactSchema),
  superPod: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('A3: the Super Pod ID every die reports (npu-smi info -t spod-info); null when the dies disagree or it cannot be read'),
  versions: z.object({
    npuSmi: z.string().nullable(),
    driver: z.string().nullable(),
    firmware: z.string().nullable(),
    cann: z.string().nullable(),
  }),
  inventory: inventoryFactSchema.optional().describe('the server model, CPUs, memory and NICs'),
  stack: stackFactSchema.optional().describe('the installed software stack: vllm-ascend, vllm, torch, torch_npu, transformers, CANN and its components, driver, firmware'),
  problems: z
    .array(z.object({ source: z.string(), message: z.string() }))
    .describe('what could not be gathered and why (empty when everything was)'),
});

export type Facts = z.infer<typeof factsSchema>;
export type DeviceFact = z.infer<typeof deviceFactSchema>;
export type InventoryFact = z.infer<typeof inventoryFactSchema>;
export type StackFact = z.infer<typeof stackFactSchema>;

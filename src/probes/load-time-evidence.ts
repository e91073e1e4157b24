import { z } from 'zod';

/**
 * The evidence of model.load-time that other programs read (`qprep schema load-time-evidence`):
 * qprep aggregate compares the nodes' estimates with it. The check writes more fields (the
 * storage read, the timeouts plan); a reader keeps what it knows.
 */
export const loadTimeEvidenceSchema = z
  .object({
    bytesToRead: z.number().nonnegative().describe('the bytes this node reads from the storage: every shard each of its ranks reads, once per node (its ranks share the page cache)'),
    throughputBytesPerSec: z.number().nonnegative().nullable().describe('what the read probe measured, bytes per second; null when it read nothing'),
    estimatedSeconds: z.number().nonnegative().nullable().describe('bytesToRead / throughputBytesPerSec + the shards each rank opens x the measured cost of opening one'),
    timeoutSeconds: z.number().nonnegative().nullable().describe('the engine-ready timeout in force (VLLM_ENGINE_READY_TIMEOUT_S, else the installed vLLM\'s default)'),
    filesystem: z.string().nullable().describe('the filesystem type of the weights directory (mountinfo: ext4, xfs, overlay, nfs4, lustre, fuse.s3fs, tmpfs, ...)'),
    cached: z.boolean().nullable().describe('true when the page cache served the probe (always on tmpfs, whose cache is the storage); null when that cannot be told'),
    storage: z
      .object({
        mountPoint: z.string().nullable(),
        source: z.string().nullable().describe('the mount source: the device, or server:/export of a network filesystem'),
        kind: z.enum(['local', 'overlay', 'network', 'parallel', 'object-store', 'fuse', 'memory', 'unknown']),
      })
      .loose()
      .optional(),
    hcclConnectTimeoutSeconds: z.number().nonnegative().nullable().optional().describe('HCCL_CONNECT_TIMEOUT in force on this node: how long it waits for a slower node'),
  })
  .loose();

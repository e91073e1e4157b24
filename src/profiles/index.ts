/**
 * Built-in profiles. Each is a partial profile document laid over the one it extends; the
 * values come from the vllm-ascend deployment guides (Qwen3.5-397B-A17B on Atlas 800 A2/A3,
 * Qwen3.5 dense on Atlas 300I Duo / 200I Pro) and their "Optimization and Tuning" page.
 */
export interface BuiltinProfile {
  description: string;
  extends?: string;
  [field: string]: unknown;
}

export const builtinProfiles: Record<string, BuiltinProfile> = {
  default: {
    description:
      'Generic vllm-ascend host: the tuning of the deployment guides (governor performance, swappiness 0, ' +
      'NUMA balancing off, sched_migration_cost_ns 50000), /dev/shm >= 1 GiB, API port 8000 and the HCCL ports free.',
    env: {
      // The launch environment of the Qwen3.5-397B-A17B guide (Atlas 800 A2/A3, single node).
      variables: {
        PYTORCH_NPU_ALLOC_CONF: 'expandable_segments:True',
        HCCL_OP_EXPANSION_MODE: 'AIV',
        HCCL_BUFFSIZE: '1024',
        OMP_NUM_THREADS: '1',
        TASK_QUEUE_ENABLE: '1',
      },
      unset: ['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'FTP_PROXY', 'ALL_PROXY'],
    },
  },
};

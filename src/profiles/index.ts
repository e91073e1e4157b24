import type { CheckId } from '../core/ids/checks.js';

/**
 * Built-in profiles. Each is a partial profile document laid over the one it extends; the
 * values come from the vllm-ascend deployment guides (Qwen3.5-397B-A17B on Atlas 800 A2/A3,
 * Qwen3.5 dense on Atlas 300I Duo / 200I Pro) and their "Optimization and Tuning" page.
 *
 * Disk sizes are the weights the guides download to /root/.cache, estimated from the
 * parameter count (the guides do not state them): 397 B parameters at 2 bytes (BF16) ≈
 * 740 GiB, at about 1 byte (w8a8, with MTP and BF16 embeddings) ≈ 400 GiB; Qwen3.5-9B in FP16
 * ≈ 18 GiB (2B ≈ 4 GiB, 4B ≈ 8 GiB), plus headroom.
 *
 * Minimum drivers: the guides name vllm-ascend images, not drivers; each vllm-ascend release
 * pins one CANN, and each CANN release names the Ascend HDK (driver) it pairs with.
 * - Qwen3.5-397B-A17B runs from vllm-ascend v0.17.0rc1 (the guide); that line ships CANN 8.5
 *   (v0.18.0 still CANN 8.5.1, vllm-ascend issue #9856), which pairs with HDK 25.5 (vllm-ascend
 *   installation page of v0.13.0, CANN 8.5.0: "25.5 is recommended"): driver >= 25.5.0. The
 *   guide's own docker run uses v0.20.2rc1 (CANN 9.0.0, whose release notes list HDK 25.5.1,
 *   25.5.2 and 26.0.RC1); a profile of that exact image would ask for 25.5.1.
 * - Qwen3.5 dense on 310P needs the v0.23.0-310p image or newer (the guide); CANN 9.0.0 already
 *   ships with v0.20.2 (installation page of that release), so the image has CANN >= 9.0.0:
 *   driver >= 25.5.1.
 * No built-in sets npu.minCann: the guides do not name a CANN version, and CANN ships inside the
 * image (a user profile can set it for qprep running in the container).
 */
export interface BuiltinProfile {
  description: string;
  extends?: string;
  [field: string]: unknown;
}

const QWEN_397B_MIN_DRIVER = '25.5.0';
const QWEN_DENSE_310P_MIN_DRIVER = '25.5.1';

/** Per node of Qwen3.5-397B-A17B: the docker run of the guide (--shm-size=1g, davinci0-7 or 0-15). */
const qwen397bA3 = { family: 'a3', minCount: 16, visibleDevices: '0-15', minDriver: QWEN_397B_MIN_DRIVER };
const qwen397bA2 = { family: 'a2', minCount: 8, visibleDevices: '0-7', minDriver: QWEN_397B_MIN_DRIVER };

/** The launch environment of the single-node w8a8 script (beyond what default exports). */
const SINGLE_NODE_ENV = { variables: { VLLM_ASCEND_ENABLE_FUSED_MC2: '1', VLLM_ASCEND_ENABLE_FLASHCOMM1: '1' } };

/** The launch environment of run_p.sh / run_d0.sh / run_d1.sh of the 1P1D guide. */
const PD_ENV = {
  variables: {
    HCCL_BUFFSIZE: '1536',
    OMP_NUM_THREADS: null,
    VLLM_USE_V1: '1',
    VLLM_ENGINE_READY_TIMEOUT_S: '30000',
    VLLM_MOONCAKE_ABORT_REQUEST_TIMEOUT: '480',
    VLLM_TORCH_PROFILER_WITH_STACK: '0',
    VLLM_ASCEND_ENABLE_FUSED_MC2: '1',
  },
};

/**
 * Several nodes serve one model: their NPU networks carry the collectives, so the netdetect
 * address the vllm-ascend multi-node verification asks for is required too (the other HCCN
 * checks and every launch check are required already).
 */
const MULTI_NODE_LEVELS: { readonly [id in CheckId]?: 'required' | 'recommended' } = { 'hccn.netdetect': 'required' };

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
  'qwen3.5-397b-w8a8-a3': {
    description:
      'Qwen3.5-397B-A17B-w8a8 on one Atlas 800 A3 (64G x 16): TP16 with expert parallelism, vllm serve --port 8000; ' +
      'all 16 dies free and healthy, ~400 GiB of weights in /root/.cache.',
    npu: qwen397bA3,
    host: { shmMin: '1GiB', hcclPortCount: 16, ports: [8000], disk: [{ path: '/root/.cache', minFree: '420GiB' }] },
    env: SINGLE_NODE_ENV,
  },
  'qwen3.5-397b-w8a8-a2': {
    description:
      'Qwen3.5-397B-A17B-w8a8 on two Atlas 800 A2 (64G x 8), one node of the pair: 8 NPUs each, API port 8000, ' +
      '~400 GiB of weights in /root/.cache (a shared directory in the guide).',
    npu: qwen397bA2,
    host: { shmMin: '1GiB', hcclPortCount: 8, ports: [8000], disk: [{ path: '/root/.cache', minFree: '420GiB' }] },
    deployment: { nodes: 2 },
    levels: MULTI_NODE_LEVELS,
  },
  'qwen3.5-397b-bf16-a3': {
    description: 'Qwen3.5-397B-A17B (BF16) on two Atlas 800 A3 (64G x 16), one node of the pair: 16 dies, ~740 GiB of weights.',
    npu: qwen397bA3,
    host: { shmMin: '1GiB', hcclPortCount: 16, ports: [8000], disk: [{ path: '/root/.cache', minFree: '760GiB' }] },
    deployment: { nodes: 2 },
    levels: MULTI_NODE_LEVELS,
  },
  'qwen3.5-397b-bf16-a2': {
    description: 'Qwen3.5-397B-A17B (BF16) on four Atlas 800 A2 (64G x 8), one node of the four: 8 NPUs, ~740 GiB of weights.',
    npu: qwen397bA2,
    host: { shmMin: '1GiB', hcclPortCount: 8, ports: [8000], disk: [{ path: '/root/.cache', minFree: '760GiB' }] },
    deployment: { nodes: 4 },
    levels: MULTI_NODE_LEVELS,
  },
  'qwen3.5-397b-pd-prefill-a3': {
    description:
      'Qwen3.5-397B-A17B-w8a8-mtp prefill node of the 1P1D Mooncake deployment on three Atlas 800 A3 (run_p.sh): 16 dies ' +
      '(ASCEND_RT_VISIBLE_DEVICES=0-15), vllm serve --port 30060, --data-parallel-rpc-port 6884, Mooncake KV ports ' +
      '23010-23025 (kv_port 23010 + rank x TP for TP 2 x DP 8), and the load-balancing proxy on port 8010.',
    npu: qwen397bA3,
    host: { shmMin: '1GiB', hcclPortCount: 16, ports: [30060, 6884, '23010-23025', 8010], disk: [{ path: '/root/.cache', minFree: '420GiB' }] },
    hccn: { kvTransfer: true },
    deployment: { nodes: 3, role: 'prefill' },
    levels: MULTI_NODE_LEVELS,
    env: PD_ENV,
  },
  'qwen3.5-397b-pd-decode-a3': {
    description:
      'Qwen3.5-397B-A17B-w8a8-mtp decode node (either of the two: run_d0.sh, run_d1.sh) of the 1P1D Mooncake deployment on ' +
      'three Atlas 800 A3: 16 dies, vllm serve --port 30050, --data-parallel-rpc-port 6884, Mooncake KV ports ' +
      '36010-36041 (kv_port 36010 + rank x TP: ranks 0-7 on the first decode node, 8-15 on the second).',
    npu: qwen397bA3,
    host: { shmMin: '1GiB', hcclPortCount: 16, ports: [30050, 6884, '36010-36041'], disk: [{ path: '/root/.cache', minFree: '420GiB' }] },
    hccn: { kvTransfer: true },
    deployment: { nodes: 3, role: 'decode' },
    levels: MULTI_NODE_LEVELS,
    env: PD_ENV,
  },
  'qwen3.5-dense-300i-duo': {
    description:
      'Qwen3.5-2B/4B/9B (FP16) on Atlas 300I Duo (310P): TP1 or TP2, so at least one free 310P chip; the guide maps ' +
      'davinci0-7 (four cards), runs vllm serve --port 1025 and publishes -p 8080:8080; --shm-size=1g; up to ~18 GiB of weights.',
    npu: { family: '310p', minCount: 1, mountSet: 'standard', minDriver: QWEN_DENSE_310P_MIN_DRIVER },
    host: { shmMin: '1GiB', ports: [1025, 8080], hcclPortCount: 2, disk: [{ path: '/root/.cache', minFree: '20GiB' }] },
  },
  'qwen3.5-dense-200i-pro': {
    description:
      'Qwen3.5-2B/4B/9B (FP16) on Atlas 200I Pro (310P): TP1 on /dev/davinci0 with the 200I Pro device and mount set ' +
      '(--privileged, ascend_manager, user_config, the SoC libraries); --shm-size=10g; vllm serve --port 1025, -p 8080:8080.',
    npu: { family: '310p', minCount: 1, visibleDevices: '0', mountSet: '200i-pro', minDriver: QWEN_DENSE_310P_MIN_DRIVER },
    host: { shmMin: '10GiB', ports: [1025, 8080], hcclPortCount: 1, disk: [{ path: '/root/.cache', minFree: '20GiB' }] },
  },
};

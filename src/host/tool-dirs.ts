/**
 * Where the vendor installs its tools when PATH lacks them: npu-smi lives in /usr/local/sbin on
 * some installs and /usr/local/bin on others; hccn_tool is installed with the driver and often
 * not on PATH. The checks' lookups and the first lines of the process search the same places.
 */
export const NPU_SMI_DIRS = ['/usr/local/sbin', '/usr/local/bin'] as const;
export const HCCN_TOOL_DIRS = ['/usr/local/Ascend/driver/tools'] as const;

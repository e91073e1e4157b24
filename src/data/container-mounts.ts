import type { NpuFamily } from '../parsers/npu-smi-info.js';

/**
 * What the vllm-ascend deployment guides pass to `docker run` so that the NPUs work inside
 * the container (seeds: the Qwen3.5-397B-A17B guide for Atlas 800 A2/A3, the Qwen3.5 dense
 * guide for Atlas 300I Duo and 200I Pro). Two sets exist: the standard one (A2, A3 and the
 * 300I Duo) and the 200I Pro one, which runs --privileged and mounts the SoC's own control
 * devices, libraries and log daemon instead.
 */
export type MountSet = 'standard' | '200i-pro';

export interface DeviceRequirement {
  path: string;
  /** the `docker run` flag that provides it */
  flag: string;
}

export interface PathRequirement {
  /** the path inside the container, as the guide mounts it */
  path: string;
  kind: 'file' | 'directory' | 'any';
  flag: string;
  /** other places the same thing may live (npu-smi is in /usr/local/sbin on some hosts) */
  alternatives?: string[];
  /** only these families need it (hccn_tool: the NPU network of A2 and A3) */
  families?: NpuFamily[];
  /** checked on a bare host too (the others exist only for the container's sake) */
  onHost: boolean;
  /** what breaks without it */
  role: string;
}

export const CONTROL_DEVICES: Record<MountSet, readonly DeviceRequirement[]> = {
  standard: [
    { path: '/dev/davinci_manager', flag: '--device /dev/davinci_manager' },
    { path: '/dev/devmm_svm', flag: '--device /dev/devmm_svm' },
    { path: '/dev/hisi_hdc', flag: '--device /dev/hisi_hdc' },
  ],
  '200i-pro': [
    { path: '/dev/davinci_manager', flag: '--device=/dev/davinci_manager' },
    { path: '/dev/ascend_manager', flag: '--device=/dev/ascend_manager' },
    { path: '/dev/user_config', flag: '--device=/dev/user_config' },
  ],
};

export function npuDeviceFlag(set: MountSet, device: number): string {
  return set === '200i-pro' ? `--device=/dev/davinci${device}:/dev/davinci${device}` : `--device /dev/davinci${device}`;
}

const DRIVER_LIB64: PathRequirement = {
  path: '/usr/local/Ascend/driver/lib64',
  kind: 'directory',
  flag: '-v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/',
  onHost: true,
  role: 'the driver user-space libraries (libascend_hal.so, libc_sec.so, ...) that npu-smi, CANN and torch_npu load',
};

export const DRIVER_PATHS: Record<MountSet, readonly PathRequirement[]> = {
  standard: [
    {
      path: '/usr/local/dcmi',
      kind: 'directory',
      flag: '-v /usr/local/dcmi:/usr/local/dcmi',
      onHost: true,
      role: 'the DCMI library npu-smi is built on',
    },
    {
      path: '/usr/local/bin/npu-smi',
      kind: 'file',
      flag: '-v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi',
      alternatives: ['/usr/local/sbin/npu-smi'],
      onHost: true,
      role: 'npu-smi, which vllm-ascend runs for health and CPU binding',
    },
    {
      path: '/usr/local/Ascend/driver/tools/hccn_tool',
      kind: 'file',
      flag: '-v /usr/local/Ascend/driver/tools/hccn_tool:/usr/local/Ascend/driver/tools/hccn_tool',
      families: ['a2', 'a3'],
      onHost: true,
      role: 'hccn_tool, which Mooncake and HIXL call for the device IPs',
    },
    DRIVER_LIB64,
    {
      path: '/usr/local/Ascend/driver/version.info',
      kind: 'file',
      flag: '-v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/version.info',
      onHost: true,
      role: 'the driver version CANN checks its compatibility against',
    },
    {
      path: '/etc/ascend_install.info',
      kind: 'file',
      flag: '-v /etc/ascend_install.info:/etc/ascend_install.info',
      onHost: true,
      role: 'the driver install record; without it npu-smi warns that the driver may not be completely installed',
    },
  ],
  '200i-pro': [
    { path: '/etc/sys_version.conf', kind: 'file', flag: '-v /etc/sys_version.conf:/etc/sys_version.conf', onHost: false, role: 'the system version record of the SoC' },
    {
      path: '/etc/ld.so.conf.d/mind_so.conf',
      kind: 'file',
      flag: '-v /etc/ld.so.conf.d/mind_so.conf:/etc/ld.so.conf.d/mind_so.conf',
      onHost: false,
      role: 'the loader path of the driver libraries',
    },
    { path: '/etc/hdcBasic.cfg', kind: 'file', flag: '-v /etc/hdcBasic.cfg:/etc/hdcBasic.cfg', onHost: false, role: 'the HDC channel configuration' },
    { path: '/var/dmp_daemon', kind: 'any', flag: '-v /var/dmp_daemon:/var/dmp_daemon', onHost: false, role: 'the device management daemon npu-smi talks to' },
    { path: '/usr/lib64/libmmpa.so', kind: 'file', flag: '-v /usr/lib64/libmmpa.so:/usr/lib64/libmmpa.so', onHost: false, role: 'a driver library' },
    { path: '/usr/lib64/libcrypto.so.1.1', kind: 'file', flag: '-v /usr/lib64/libcrypto.so.1.1:/usr/lib64/libcrypto.so.1.1', onHost: false, role: 'the OpenSSL 1.1 the driver links' },
    {
      path: '/usr/local/sbin/npu-smi',
      kind: 'file',
      flag: '-v /usr/local/sbin/npu-smi:/usr/local/sbin/npu-smi',
      alternatives: ['/usr/local/bin/npu-smi'],
      onHost: true,
      role: 'npu-smi',
    },
    { path: '/usr/lib64/libstackcore.so', kind: 'file', flag: '-v /usr/lib64/libstackcore.so:/usr/lib64/libstackcore.so', onHost: false, role: 'a driver library' },
    {
      path: '/usr/lib64/libyaml-0.so.2',
      kind: 'file',
      flag: '-v /usr/lib/aarch64-linux-gnu/libyaml-0.so.2:/usr/lib64/libyaml-0.so.2',
      onHost: false,
      role: 'libyaml, which the driver tools load (on openEuler hosts the source is /usr/lib64/libyaml-0.so.2.0.9)',
    },
    { path: '/etc/slog.conf', kind: 'file', flag: '-v /etc/slog.conf:/etc/slog.conf', onHost: false, role: 'the driver log configuration' },
    { path: '/var/slogd', kind: 'any', flag: '-v /var/slogd:/var/slogd', onHost: false, role: 'the driver log daemon' },
    { ...DRIVER_LIB64, flag: '-v /usr/local/Ascend/driver/lib64:/usr/local/Ascend/driver/lib64' },
    { path: '/usr/lib64/libtensorflow.so', kind: 'file', flag: '-v /usr/lib64/libtensorflow.so:/usr/lib64/libtensorflow.so', onHost: false, role: 'a library the guide mounts for the SoC runtime' },
  ],
};

/**
 * The mount that brings a shared library into the container, for "error while loading
 * shared libraries: X" from npu-smi. Libraries not listed come from the driver's lib64.
 */
export function mountForLibrary(set: MountSet, library: string): string {
  if (/^libdcmi\b/.test(library)) return '-v /usr/local/dcmi:/usr/local/dcmi';
  const direct = DRIVER_PATHS[set].find((p) => p.kind === 'file' && p.path.endsWith(`/${library}`));
  if (direct) return direct.flag;
  return DRIVER_PATHS[set].find((p) => p.path === DRIVER_LIB64.path)!.flag;
}

import type { FakeCommand, FakeHostSpec, FakeNode } from './fake-host.js';
import { ascendFixture } from './fixtures.js';

export const NPU_SMI = '/usr/local/bin/npu-smi';
export const HCCN_TOOL = '/usr/local/Ascend/driver/tools/hccn_tool';

/** The paths the standard guide bind-mounts, as they appear inside the container. */
export const STANDARD_MOUNTS = [
  '/usr/local/dcmi',
  NPU_SMI,
  HCCN_TOOL,
  '/usr/local/Ascend/driver/lib64',
  '/usr/local/Ascend/driver/version.info',
  '/etc/ascend_install.info',
];

export interface NpuHostOptions {
  /** stdout of `npu-smi info`, or a full command answer */
  info?: string | Omit<FakeCommand, 'argv'>;
  /** /dev/davinciN nodes to create */
  devices?: number[];
  /** run as if inside a container with the guide's bind mounts */
  container?: boolean;
  /** paths (from the tree below) not to create */
  missing?: string[];
  /** paths present but not bind-mounted (container only) */
  notMounted?: string[];
  /** the 200I Pro control devices instead of the standard ones */
  soc?: boolean;
  files?: Record<string, FakeNode>;
  commands?: FakeCommand[];
  env?: Record<string, string>;
  driverVersionInfo?: string;
  firmwareVersionInfo?: string;
}

function mountinfo(paths: readonly string[]): string {
  const lines = ['1093 992 0:120 / / rw,relatime master:464 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A'];
  lines.push('1094 1093 0:123 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw');
  lines.push('1095 1093 0:124 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755');
  paths.forEach((path, i) => lines.push(`${1100 + i} 1093 253:1 ${path} ${path} rw,relatime - ext4 /dev/vda1 rw`));
  return `${lines.join('\n')}\n`;
}

/** A fake Ascend host (or container) for check tests: npu-smi answering a fixture, device nodes, driver files. */
export function npuHost(options: NpuHostOptions = {}): FakeHostSpec {
  const devices = options.devices ?? [0, 1, 2, 3, 4, 5, 6, 7];
  const missing = new Set(options.missing ?? []);
  const exe = (content = '#!/bin/sh\n'): FakeNode => ({ kind: 'file', content, mode: 0o755 });
  const files: Record<string, FakeNode> = {
    [NPU_SMI]: exe(),
    [HCCN_TOOL]: exe(),
    '/usr/local/dcmi/libdcmi.so': 'ELF',
    '/usr/local/Ascend/driver/lib64/driver/libascend_hal.so': 'ELF',
    '/usr/local/Ascend/driver/lib64/common/libc_sec.so': 'ELF',
    '/usr/local/Ascend/driver/version.info': options.driverVersionInfo ?? ascendFixture('driver-version-info-25.0.rc1.1-mindie-notes.txt'),
    '/usr/local/Ascend/firmware/version.info': options.firmwareVersionInfo ?? ascendFixture('firmware-version-info-7.7.0.1.231-mindie-notes.txt'),
    '/etc/ascend_install.info': ascendFixture('ascend-install-info-llm-action.txt'),
  };
  const controls = options.soc ? ['/dev/davinci_manager', '/dev/ascend_manager', '/dev/user_config'] : ['/dev/davinci_manager', '/dev/devmm_svm', '/dev/hisi_hdc'];
  for (const path of controls) files[path] = { kind: 'char-device' };
  for (const id of devices) files[`/dev/davinci${id}`] = { kind: 'char-device' };
  files['/dev/null'] = { kind: 'char-device' };
  if (options.container) {
    files['/.dockerenv'] = '';
    const mounted = STANDARD_MOUNTS.filter((p) => !(options.notMounted ?? []).includes(p) && !missing.has(p));
    files['/proc/self/mountinfo'] = mountinfo(mounted);
  }
  Object.assign(files, options.files ?? {});
  for (const path of missing) {
    for (const key of Object.keys(files)) if (key === path || key.startsWith(`${path}/`)) delete files[key];
  }
  const info = options.info ?? ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
  const commands: FakeCommand[] = [
    { argv: [NPU_SMI, 'info'], ...(typeof info === 'string' ? { stdout: info } : info) },
    { argv: [NPU_SMI, 'info', '-t', 'board', '-i', '0'], stdout: ascendFixture('npu-smi-info-t-board-910a-mindcluster-fixture.txt').replace('7.1.0.7.220', '7.7.0.1.231') },
    ...(options.commands ?? []),
  ];
  return { files, commands, env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...options.env } };
}

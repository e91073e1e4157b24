#!/usr/bin/env node
// Builds the demo snapshots of examples/snapshots from the public captures in test/fixtures:
// each demo host is described as data (MemoryHost), qprep runs its whole catalogue on it through
// the snapshot recorder, and the recording is written like `qprep snapshot` writes one.
// Re-run after a change to the checks: npm run build && node scripts/make-demo-snapshots.mjs [DIR]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProfile, performCheck } from '../dist/src/app/session.js';
import { MemoryHost } from '../dist/src/host/memory.js';
import { RecordingHost } from '../dist/src/host/snapshot.js';
import { redactScript } from '../dist/src/util/redact.js';
import { VERSION } from '../dist/src/version.js';

const REPO = new URL('..', import.meta.url).pathname;
const outDir = process.argv[2] ?? join(REPO, 'examples/snapshots');
const CREATED = new Date('2026-12-01T08:00:00.000Z');

const capture = (name) => readFileSync(join(REPO, 'test/fixtures/ascend', name), 'utf8');
const guideScript = (name) => readFileSync(join(REPO, 'test/fixtures/launch', name), 'utf8');
const derived = (name) => readFileSync(join(REPO, 'test/fixtures/synthetic', name), 'utf8');

const GiB = 1024 ** 3;
const TMPFS = 0x01021994;
const EXT4 = 0xef53;
const exe = (content = '#!/bin/sh\n') => ({ kind: 'file', content, mode: 0o755 });
const chr = { kind: 'char-device', mode: 0o660 };

/** What every demo host shares: a tuned Kunpeng 920 node (4 x 48 cores), no proxy, free ports. */
function baseFiles({ os, memTotalKb, memAvailableKb }) {
  const files = {
    '/sys/devices/system/cpu/online': '0-191\n',
    '/proc/sys/vm/swappiness': '0\n',
    '/proc/sys/kernel/numa_balancing': '0\n',
    '/proc/sys/kernel/sched_migration_cost_ns': '50000\n',
    '/proc/meminfo': `MemTotal:       ${memTotalKb} kB\nMemFree:        ${memAvailableKb - 4_000_000} kB\nMemAvailable:   ${memAvailableKb} kB\n`,
    '/proc/net/tcp': '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n',
    '/proc/net/tcp6': '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n',
    '/etc/os-release': os,
    '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF',
    '/dev/null': chr,
  };
  for (let cpu = 0; cpu < 192; cpu++) {
    files[`/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`] = 'performance\n';
    files[`/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_available_governors`] = 'ondemand performance\n';
  }
  return files;
}

const UBUNTU = 'NAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\nID_LIKE=debian\nPRETTY_NAME="Ubuntu 22.04.5 LTS"\n';
const OPENEULER = 'NAME="openEuler"\nVERSION="22.03 (LTS-SP4)"\nID="openEuler"\nVERSION_ID="22.03"\nPRETTY_NAME="openEuler 22.03 (LTS-SP4)"\n';

function hostNetwork(address) {
  return [
    { name: 'lo', adminUp: true, operState: 'unknown', running: true, mtu: 65536, mac: null, loopback: true, addresses: [{ family: 'IPv4', address: '127.0.0.1', netmask: '255.0.0.0', prefix: 8 }] },
    {
      name: 'enp189s0f0',
      adminUp: true,
      operState: 'up',
      running: true,
      mtu: 1500,
      mac: '00:16:3e:5a:20:11',
      loopback: false,
      addresses: [{ family: 'IPv4', address, netmask: '255.255.255.0', prefix: 24 }],
    },
  ];
}

/** /dev of an NPU host: davinciN and the standard control devices. */
function npuDevices(count) {
  const files = { '/dev/davinci_manager': chr, '/dev/devmm_svm': chr, '/dev/hisi_hdc': chr };
  for (let id = 0; id < count; id++) files[`/dev/davinci${id}`] = chr;
  return files;
}

/** The driver files as the host installs them (or the container mounts them). */
function driverFiles({ versionInfo, hccnTool = true, npuSmiDir = '/usr/local/bin', installInfo = true }) {
  const files = {
    [`${npuSmiDir}/npu-smi`]: exe(),
    '/usr/local/dcmi/libdcmi.so': 'ELF',
    '/usr/local/Ascend/driver/lib64/driver/libascend_hal.so': 'ELF',
    '/usr/local/Ascend/driver/lib64/driver/libdrvdsmi_host.so': 'ELF',
    '/usr/local/Ascend/driver/lib64/common/libc_sec.so': 'ELF',
    '/usr/local/Ascend/driver/version.info': versionInfo,
  };
  if (hccnTool) files['/usr/local/Ascend/driver/tools/hccn_tool'] = exe();
  if (installInfo) files['/etc/ascend_install.info'] = capture('ascend-install-info-llm-action.txt');
  return files;
}

/** A container of the guide: overlay root, /.dockerenv, and a bind mount for each of `mounts`. */
function containerFiles(mounts) {
  const lines = [
    '1093 992 0:120 / / rw,relatime master:464 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/7QH3:/var/lib/docker/overlay2/l/K2PA',
    '1094 1093 0:123 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw',
    '1095 1093 0:124 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755',
    '1096 1095 0:126 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,size=1048576k',
  ];
  mounts.forEach((path, i) => lines.push(`${1110 + i} 1093 253:1 ${path} ${path} rw,relatime - ext4 /dev/mapper/vg0-root rw`));
  return { '/.dockerenv': '', '/proc/self/mountinfo': `${lines.join('\n')}\n`, '/proc/1/cgroup': '0::/\n', '/sys/fs/cgroup/memory.max': 'max\n' };
}

function hostMountinfo() {
  return {
    '/proc/self/mountinfo': '22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/mapper/openeuler-root rw\n26 22 0:21 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw\n',
    '/proc/1/cgroup': '0::/init.scope\n',
  };
}

const CONTAINER_ENV = { PATH: '/usr/local/Ascend/ascend-toolkit/latest/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', ASCEND_TOOLKIT_HOME: '/usr/local/Ascend/ascend-toolkit/latest', ASCEND_HOME_PATH: '/usr/local/Ascend/ascend-toolkit/latest' };
const HOST_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin' };

const CANN_8_3 = {
  '/usr/local/Ascend/ascend-toolkit/latest': { kind: 'symlink', target: '/usr/local/Ascend/ascend-toolkit/8.3.RC2' },
  '/usr/local/Ascend/ascend-toolkit/8.3.RC2/aarch64-linux/ascend_toolkit_install.info': capture('cann-toolkit-install-info-8.3.RC2-vllm-ascend-5784.txt'),
};

/**
 * Weights in the ModelScope cache, where vllm looks for a model id with VLLM_USE_MODELSCOPE
 * ("." in a name is "___" there): config.json, the shard index, shards of the given sizes
 * in GiB (their content does not matter here).
 */
function modelScopeWeights(id, shardGiB, { quantized = false } = {}) {
  const dir = `/root/.cache/modelscope/hub/models/${id.replace(/\./g, '___')}`;
  const shards = shardGiB.map((_, i) => `model-${String(i + 1).padStart(5, '0')}-of-${String(shardGiB.length).padStart(5, '0')}.safetensors`);
  const files = {
    [`${dir}/config.json`]: '{"model_type": "qwen3_5"}\n',
    [`${dir}/model.safetensors.index.json`]: `${JSON.stringify({ weight_map: Object.fromEntries(shards.map((s, i) => [`layers.${i}.weight`, s])) })}\n`,
  };
  shards.forEach((shard, i) => (files[`${dir}/${shard}`] = { kind: 'file', content: '', size: shardGiB[i] * GiB }));
  if (quantized) files[`${dir}/quant_model_description.json`] = '{}\n';
  return files;
}

/** The Python of the vllm-ascend image: vllm on PATH, its site-packages without triton (the 310P guide). */
const IMAGE_PYTHON = '/usr/local/python3.11.13';
const imagePython = {
  [`${IMAGE_PYTHON}/bin/vllm`]: exe(`#!${IMAGE_PYTHON}/bin/python3.11\n`),
  [`${IMAGE_PYTHON}/bin/python3.11`]: exe('ELF'),
  [`${IMAGE_PYTHON}/lib/python3.11/site-packages/vllm-0.23.0.dist-info/METADATA`]: 'Name: vllm\n',
  [`${IMAGE_PYTHON}/lib/python3.11/site-packages/vllm_ascend-0.23.0.dist-info/METADATA`]: 'Name: vllm-ascend\n',
  [`${IMAGE_PYTHON}/lib/python3.11/site-packages/torch_npu-2.8.0.dist-info/METADATA`]: 'Name: torch-npu\n',
};

const GUIDE_MOUNTS = ['/usr/local/dcmi', '/usr/local/Ascend/driver/tools/hccn_tool', '/usr/local/bin/npu-smi', '/usr/local/Ascend/driver/lib64', '/usr/local/Ascend/driver/version.info', '/etc/ascend_install.info'];

const demos = [
  {
    name: 'a2-healthy',
    profile: 'qwen3.5-397b-w8a8-a2',
    spec: {
      identity: { hostname: 'a2-node1', arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
      env: CONTAINER_ENV,
      files: {
        ...baseFiles({ os: UBUNTU, memTotalKb: 1_584_000_000, memAvailableKb: 1_480_000_000 }),
        ...npuDevices(8),
        ...driverFiles({ versionInfo: derived('driver-version-info-25.3.rc1-derived.txt') }),
        ...containerFiles(GUIDE_MOUNTS),
        ...CANN_8_3,
      },
      commands: [
        { argv: ['/usr/local/bin/npu-smi', 'info'], stdout: capture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt') },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt') },
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 1 * GiB, freeBytes: 1 * GiB, availableBytes: 1 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 3500 * GiB, freeBytes: 2100 * GiB, availableBytes: 2000 * GiB },
      },
      interfaces: hostNetwork('10.20.0.11'),
    },
  },
  {
    name: 'a3-healthy',
    profile: 'qwen3.5-397b-w8a8-a3',
    spec: {
      identity: { hostname: 'a3-node1', arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
      env: HOST_ENV,
      files: {
        ...baseFiles({ os: OPENEULER, memTotalKb: 1_584_000_000, memAvailableKb: 1_500_000_000 }),
        ...npuDevices(16),
        ...driverFiles({ versionInfo: derived('driver-version-info-25.2.1-minimal-derived.txt'), npuSmiDir: '/usr/local/sbin' }),
        ...hostMountinfo(),
        // about 400 GiB of w8a8 weights (an estimate from the parameter count), in 94 shards
        ...modelScopeWeights('Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', Array(94).fill(4.3), { quantized: true }),
      },
      commands: [
        { argv: ['/usr/local/sbin/npu-smi', 'info'], stdout: capture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt') },
        { argv: ['/usr/local/sbin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910a-mindcluster-fixture.txt') },
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 756 * GiB, freeBytes: 756 * GiB, availableBytes: 756 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 7000 * GiB, freeBytes: 5200 * GiB, availableBytes: 5000 * GiB },
      },
      interfaces: hostNetwork('10.20.1.21'),
    },
    // the guide's single-node script as published (qprep check --launch)
    launch: 'qwen3.5-397b-w8a8-a3-single-node.sh',
  },
  {
    name: '300i-duo-healthy',
    profile: 'qwen3.5-dense-300i-duo',
    spec: {
      identity: { hostname: 'duo-node1', arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
      env: { ...CONTAINER_ENV, PATH: `${IMAGE_PYTHON}/bin:${CONTAINER_ENV.PATH}` },
      files: {
        ...baseFiles({ os: UBUNTU, memTotalKb: 527_000_000, memAvailableKb: 480_000_000 }),
        ...imagePython,
        ...modelScopeWeights('Qwen/Qwen3.5-2B', [4.3]),
        ...npuDevices(8),
        ...driverFiles({ versionInfo: derived('driver-version-info-25.5.1-minimal-derived.txt'), hccnTool: false }),
        ...containerFiles(GUIDE_MOUNTS.filter((p) => !p.endsWith('hccn_tool'))),
        '/usr/local/Ascend/ascend-toolkit/latest/toolkit/version.info': capture('cann-toolkit-version-info-8.2.RC1-mindie-notes.txt'),
      },
      commands: [
        { argv: ['/usr/local/bin/npu-smi', 'info'], stdout: capture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt') },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'board', '-i', '1'], stdout: capture('npu-smi-info-t-board-910a-mindcluster-fixture.txt') },
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 1 * GiB, freeBytes: 1 * GiB, availableBytes: 1 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 900 * GiB, freeBytes: 600 * GiB, availableBytes: 560 * GiB },
      },
      interfaces: hostNetwork('10.20.2.31'),
    },
    launch: 'qwen3.5-2b-310p.sh',
  },
  {
    name: 'a2-broken',
    profile: 'qwen3.5-397b-w8a8-a2',
    spec: {
      identity: { hostname: 'a2-node7', arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
      env: CONTAINER_ENV,
      files: {
        ...baseFiles({ os: UBUNTU, memTotalKb: 1_584_000_000, memAvailableKb: 1_300_000_000 }),
        ...npuDevices(8),
        // started without -v /etc/ascend_install.info: npu-smi warns, npu.driver-files names the flag
        ...driverFiles({ versionInfo: derived('driver-version-info-26.1.0-minimal-derived.txt'), installInfo: false }),
        ...containerFiles(GUIDE_MOUNTS.filter((p) => p !== '/etc/ascend_install.info')),
        ...CANN_8_3,
      },
      commands: [
        { argv: ['/usr/local/bin/npu-smi', 'info'], stdout: derived('npu-smi-info-910b3-26.1.0-npu5-warning-incomplete-driver-derived.txt') },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt') },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'health', '-i', '5', '-c', '0'], stdout: capture('npu-smi-info-t-health-warning-errorcode-testfixture.txt') },
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 1 * GiB, freeBytes: 1 * GiB, availableBytes: 1 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 3500 * GiB, freeBytes: 2100 * GiB, availableBytes: 2000 * GiB },
      },
      interfaces: hostNetwork('10.20.0.17'),
    },
  },
];

/** Run-specific values (ids, clocks) are fixed so that re-running the script changes nothing. */
function stable(report, name) {
  return {
    ...report,
    runId: `demo-${name}`,
    startedAt: CREATED.toISOString(),
    durationMs: 0,
    checks: report.checks.map((c) => ({ ...c, durationMs: 0 })),
  };
}

mkdirSync(outDir, { recursive: true });
for (const demo of demos) {
  const recorder = new RecordingHost(new MemoryHost(demo.spec));
  const loaded = await loadProfile(demo.profile);
  // the launch script as `qprep snapshot --launch FILE` records it, from the working directory
  const launch = demo.launch ? { file: demo.launch, text: guideScript(demo.launch), from: 'file' } : undefined;
  const handle = { host: recorder, source: { kind: 'live', root: '/' }, ...(launch ? { launch } : {}) };
  const run = await performCheck(handle, loaded, {}, { now: () => CREATED });
  await recorder.interfaces();
  const snapshot = { ...(await recorder.toSnapshot({ name: 'qprep', version: VERSION }, CREATED)), report: stable(run.report, demo.name) };
  if (launch) snapshot.launch = { file: launch.file, text: redactScript(launch.text) };
  const file = join(outDir, `${demo.name}.json`);
  writeFileSync(file, `${JSON.stringify(snapshot, null, 1)}\n`);
  const { summary, ready } = run.report;
  console.log(`${file}: ${ready ? 'ready' : 'NOT READY'} (${summary.pass} pass, ${summary.warn} warn, ${summary.fail} fail, ${summary.skip} skip, ${summary.error} error)`);
}

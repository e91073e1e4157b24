#!/usr/bin/env node
// Builds the demo snapshots of examples/snapshots from the public captures in test/fixtures:
// each demo host is described as data (MemoryHost), qprep runs its whole catalogue on it through
// the snapshot recorder, and the recording is written like `qprep snapshot` writes one.
// Re-run after a change to the checks: npm run build && node scripts/make-demo-snapshots.mjs [DIR]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadProfile, performCheck, runSettingsRecord } from '../dist/src/app/session.js';
import { MemoryHost } from '../dist/src/host/memory.js';
import { builtinConfigOf } from '../dist/src/knowledge/model-configs.js';
import { shapeOf } from '../dist/src/probes/model-shape.js';
import { splitWeights } from '../dist/src/probes/weights-split.js';
import { RecordingHost } from '../dist/src/host/snapshot.js';
import { redactScript } from '../dist/src/util/redact.js';
import { VERSION } from '../dist/src/version.js';

const REPO = new URL('..', import.meta.url).pathname;
const outDir = resolve(process.argv[2] ?? join(REPO, 'examples/snapshots'));
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

/**
 * The DMI strings of an Atlas 800I A2 as its firmware writes them (a published dmidecode capture,
 * test/fixtures/dmi): the A2 demos are that server. No A3 capture is public: the A3 demos have none.
 */
const A800I_A2_DMI = { '/sys/class/dmi/id/sys_vendor': 'Huawei\n', '/sys/class/dmi/id/product_name': 'A800I A2\n' };

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
 * The config.json of a Qwen3.5 model laid out as its Hugging Face repository lays it out (the
 * architecture and model_type on top, the language model's values in text_config), holding the
 * values of knowledge/model-configs.json, each with its source there. What no source gives (rope,
 * token ids, the vision tower's own config) is left out: model.fit does not read it.
 */
function qwen35Config(model) {
  const { architectures, tie_word_embeddings: tied = false, ...text } = builtinConfigOf(model.replace(/^.*\//, '')).config;
  const moe = 'num_experts' in text;
  const type = moe ? 'qwen3_5_moe' : 'qwen3_5';
  return {
    // transformers' class of the model_type (knowledge/models.json, family Qwen3.5)
    architectures: architectures ?? [moe ? 'Qwen3_5MoeForConditionalGeneration' : 'Qwen3_5ForConditionalGeneration'],
    model_type: type,
    tie_word_embeddings: tied,
    text_config: { model_type: `${type}_text`, tie_word_embeddings: tied, ...text },
  };
}

/**
 * The parameters of the Qwen3-VL vision tower Qwen3.5 carries (Conv3d patch embedding, learned
 * positions, the blocks, the 2 x 2 patch merger), from its config: depth, hidden, intermediate
 * and output sizes, as omegalax's Qwen3_5VisionConfig gives them per model (its defaults for
 * the 9B and the 397B).
 */
function visionParams({ depth = 27, hidden = 1152, intermediate = 4304, out = 4096 } = {}) {
  const block = 4 * hidden * hidden + 4 * hidden + 2 * hidden * intermediate + intermediate + hidden + 4 * hidden;
  const merger = 2 * hidden + 16 * hidden * hidden + 4 * hidden + 4 * hidden * out + out;
  return 3 * 2 * 16 * 16 * hidden + hidden + 2304 * hidden + depth * block + merger;
}

/**
 * The checkpoint's bytes, from the parameter count of its config (src/probes/weights-split.ts)
 * and of its vision tower at 2 bytes: no published index of these repositories gives its
 * total_size, so the demo weights are this estimate (W8A8: the linear layers at 1 byte).
 */
function checkpointBytes(config, { quantized = false, vision } = {}) {
  const shape = shapeOf(config, { hybrid: true }).shape;
  const split = splitWeights(shape, { tp: 1, pp: 1, ep: 0, mtp: true, mtpSharesVocab: true, linearBytes: quantized ? 1 : 2, otherBytes: 2 });
  return split.estimatedTotalBytes + 2 * visionParams(vision);
}

/**
 * Weights in the ModelScope cache, where vllm looks for a model id with VLLM_USE_MODELSCOPE
 * ("." in a name is "___" there): config.json, the shard index, `shards` shards of equal size
 * making the checkpoint's bytes (their content does not matter here).
 */
function modelScopeWeights(id, { config, bytes, shards: count = 1, quantized = false }) {
  const dir = `/root/.cache/modelscope/hub/models/${id.replace(/\./g, '___')}`;
  const shards = Array.from({ length: count }, (_, i) => `model-${String(i + 1).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.safetensors`);
  const files = {
    [`${dir}/config.json`]: `${JSON.stringify(config, null, 2)}\n`,
    [`${dir}/model.safetensors.index.json`]: `${JSON.stringify({ weight_map: Object.fromEntries(shards.map((s, i) => [`layers.${i}.weight`, s])) })}\n`,
  };
  for (const shard of shards) files[`${dir}/${shard}`] = { kind: 'file', content: '', size: Math.ceil(bytes / count) };
  if (quantized) files[`${dir}/quant_model_description.json`] = '{}\n';
  return files;
}

/** The models of the seed deployments: their config.json and the bytes of their checkpoints. */
const W8A8_CONFIG = qwen35Config('Qwen/Qwen3.5-397B-A17B');
/** Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp: 99 shards (its load in vllm-ascend #7671: "61/99") */
const W8A8 = { config: W8A8_CONFIG, bytes: checkpointBytes(W8A8_CONFIG, { quantized: true }), shards: 99, quantized: true };
const DENSE = Object.fromEntries(
  [
    ['2B', { depth: 24, hidden: 1024, intermediate: 4096, out: 2048 }],
    ['4B', { depth: 24, hidden: 1024, intermediate: 4096, out: 2560 }],
    ['9B', undefined],
  ].map(([size, vision]) => {
    const config = qwen35Config(`Qwen/Qwen3.5-${size}`);
    return [size, { config, bytes: checkpointBytes(config, { vision }) }];
  }),
);

/**
 * The Python of the vllm-ascend v0.23.0 image, as its Dockerfile builds it: vllm on PATH, vllm and
 * vllm-ascend installed editable from /vllm-workspace (direct_url.json), the device type the image
 * was built for in vllm_ascend/_build_info.py, torch and torch_npu of that release
 * (knowledge/releases.json), no triton (the 310P guide).
 */
const IMAGE_PYTHON = '/usr/local/python3.11.13';
const SITE = `${IMAGE_PYTHON}/lib/python3.11/site-packages`;
const metadata = (name, version) => `Metadata-Version: 2.4\nName: ${name}\nVersion: ${version}\n\n`;
const editable = (path) => `{"dir_info": {"editable": true}, "url": "file://${path}"}`;
function imagePython(deviceType) {
  return {
    [`${IMAGE_PYTHON}/bin/vllm`]: exe(`#!${IMAGE_PYTHON}/bin/python3.11\n`),
    [`${IMAGE_PYTHON}/bin/python3.11`]: exe('ELF'),
    [`${SITE}/vllm-0.23.0+empty.dist-info/METADATA`]: metadata('vllm', '0.23.0+empty'),
    [`${SITE}/vllm-0.23.0+empty.dist-info/direct_url.json`]: editable('/vllm-workspace/vllm'),
    [`${SITE}/vllm_ascend-0.23.0.dist-info/METADATA`]: metadata('vllm_ascend', '0.23.0'),
    [`${SITE}/vllm_ascend-0.23.0.dist-info/direct_url.json`]: editable('/vllm-workspace/vllm-ascend'),
    '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py': `# Auto-generated file\n__device_type__ = '${deviceType}'\n`,
    [`${SITE}/torch-2.10.0+cpu.dist-info/METADATA`]: metadata('torch', '2.10.0+cpu'),
    [`${SITE}/torch_npu-2.10.0.post4.dist-info/METADATA`]: metadata('torch_npu', '2.10.0.post4'),
  };
}
/** SOC_VERSION as the image's Dockerfile sets it (Dockerfile: ascend910b1, Dockerfile.310p: ascend310p1) */
const IMAGE_SOC = { A2: 'ascend910b1', _310P: 'ascend310p1' };

// ---------------------------------------------------------------------------------------------
// hccn_tool answers: each device's lines of the vendor docs' `for i in {0..7}` loop captures
// (one device's part of the loop), with the addresses of the demo node put in.

const HCCN_TOOL = '/usr/local/Ascend/driver/tools/hccn_tool';
const lines = (name, from, count = 1) => `${capture(name).split('\n').slice(from, from + count).join('\n')}\n`;

/** One device's answer in mind-cluster's collection bundles (test/fixtures/ascend/*-8dev-*-mindcluster-modelarts.txt), its device id put in. */
function bundleAnswer(name, device, op) {
  const bundle = capture(name).split('\n');
  const start = bundle.findIndex((line) => line.trimEnd().endsWith(`hccn_tool -i ${device % 8} -${op} -g`));
  const out = [];
  for (const line of bundle.slice(start + 1)) {
    if (line.trim() === '' || /hccn_tool -i \d+ -/.test(line)) break;
    out.push(line);
  }
  return `${out.join('\n')}\n`.replace(/\[devid \d+\]/g, `[devid ${device}]`);
}

/**
 * The link diagnostics of one device (--depth deep, and -fec at standard): the bundle before its
 * job (a bring-up burst only, unchanged counters), the derived healthy module, the doc's rs FEC;
 * a DOWN port has the bundle's newest LINK DOWN and an empty cage; `flap` a down transition 12 h
 * before the read, `weak` a lane at 0.3054 mW (test/fixtures/synthetic).
 */
function diagAnswers(d, { a3, down, flap, weak }) {
  const linkStat = down
    ? bundleAnswer('hccn-link-stat-g-8dev-after-mindcluster-modelarts.txt', 0, 'link_stat').replace(/\[devid 0\]/g, `[devid ${d}]`)
    : flap
      ? derived('hccn-link-stat-g-flap-24h-derived.txt').replace(/\[devid 0\]/g, `[devid ${d}]`)
      : bundleAnswer('hccn-link-stat-g-8dev-before-mindcluster-modelarts.txt', d, 'link_stat');
  return {
    link_stat: linkStat,
    optical: derived(down ? 'hccn-optical-g-absent-derived.txt' : weak ? 'hccn-optical-g-weak-lane-derived.txt' : 'hccn-optical-g-healthy-derived.txt'),
    fec: a3 ? derived('hccn-fec-g-a3-unsupported-derived.txt') : capture('hccn-fec-g-rs-mindcluster-doc.txt'),
    stat: bundleAnswer('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt', d, 'stat'),
  };
}

/**
 * The answers of one node: `ip(d)` its RoCE address (/24, gateway and netdetect .1), `vnic(d)`
 * on A3, `down` the devices whose port is DOWN, `flap` those that flapped in the last 24 h,
 * `weak` those with a weak lane.
 */
function hccnCommands({ devices, ip, vnic, down = [], flap = [], weak = [] }) {
  const commands = [];
  const answer = (device, op, stdout) => commands.push({ argv: [HCCN_TOOL, '-i', String(device), `-${op}`, '-g'], stdout });
  for (const d of devices) {
    const slot = d % 8;
    const gateway = ip(d).replace(/\.\d+$/, '.1');
    answer(d, 'ip', lines('hccn-ip-g-a2x8-mindie-dsv3doc.txt', slot * 2, 2).replace(/ipaddr:\S+/, `ipaddr:${ip(d)}`));
    answer(d, 'link', down.includes(d) ? 'link status: DOWN\n' : lines('hccn-link-up-mindie-dsv3doc.txt', 0));
    answer(d, 'net_health', down.includes(d) ? 'net health status: Fault\n' : lines('hccn-net-health-success-mindie-dsv3doc.txt', 0));
    answer(d, 'netdetect', lines('hccn-netdetect-mindie-dsv3doc.txt', 0).replace('11.12.165.1', gateway));
    answer(d, 'gateway', lines('hccn-gateway-a2x8-mindie-dsv3doc.txt', slot).replace('11.12.165.1', gateway).replace(/eth\d+/, `eth${d}`));
    answer(d, 'lldp', down.includes(d) ? '' : lines('hccn-lldp-ifname-a2x8-mindie-dsv3doc.txt', slot));
    answer(d, 'tls', lines('hccn-tls-switch-a2x8-mindie-dsv3doc.txt', slot).replace(/dev_id:\d+/, `dev_id:${d}`));
    if (vnic) {
      answer(d, 'vnic', capture('hccn-vnic-g-950doc-driver-repo.txt').replace('192.168.2.199', vnic(d)));
    }
    const diag = diagAnswers(d, { a3: vnic !== undefined, down: down.includes(d), flap: flap.includes(d), weak: weak.includes(d) });
    for (const [op, stdout] of Object.entries(diag)) answer(d, op, stdout);
  }
  return commands;
}

/** /etc/hccn.conf as hccn_tool -ip -s writes it (key_N=value, reference §3.11). */
function hccnConf(devices, ip) {
  return devices.map((d) => `address_${d}=${ip(d)}\nnetmask_${d}=255.255.255.0\nnetdetect_${d}=${ip(d).replace(/\.\d+$/, '.1')}\ngateway_${d}=${ip(d).replace(/\.\d+$/, '.1')}\n`).join('');
}

/** `hccn_tool -i D -ping -g address X`: device D's section of the 8-device ping capture, or the no-reply answer. */
function pingCommands(pairs) {
  return pairs.map(({ device, address, lost }) => ({
    argv: [HCCN_TOOL, '-i', String(device), '-ping', '-g', 'address', address],
    stdout: lost
      ? derived('hccn-ping-no-reply.txt').replace('device 3', `device ${device}`).replace('198.18.2.13', address)
      : lines('hccn-ping-success-a2x8-mindie-dsv3doc.txt', (device % 8) * 5, 5).replace('11.12.165.80', address),
  }));
}

/** `npu-smi info -t spod-info -i <card> -c <chip>` of an A3: the two captured dies of one node, by die. */
function spodCommands(npuSmi) {
  const commands = [];
  for (let card = 0; card < 8; card++) {
    for (const chip of [0, 1]) commands.push({ argv: [npuSmi, 'info', '-t', 'spod-info', '-i', String(card), '-c', String(chip)], stdout: capture(`npu-smi-info-t-spod-info-a3-dev${chip}-mindcluster-vllm-log.txt`) });
  }
  return commands;
}

/**
 * `npu-smi info -t ecc -i <card>` of the 8 cards: clean counters from the 910A capture of
 * mind-cluster's log-collection guide (A3: its two-chip derivation), the card's id in the NPU ID
 * line; `answers` replaces a card's text.
 */
function eccCommands(npuSmi, chips, answers = {}) {
  const clean = chips === 2 ? derived('npu-smi-info-t-ecc-two-chips-derived.txt') : capture('npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt');
  return [0, 1, 2, 3, 4, 5, 6, 7].map((card) => ({
    argv: [npuSmi, 'info', '-t', 'ecc', '-i', String(card)],
    stdout: answers[card] ?? clean.replace(/^(\s*NPU ID\s+: )\d+$/m, `$1${card}`),
  }));
}

const A2_DEVICES = [0, 1, 2, 3, 4, 5, 6, 7];
const A3_DEVICES = [...Array(16).keys()];
/** a2-node1 has the capture's addresses 11.12.165.80-87; a2-node2 continues at .88 */
const node1Ip = (d) => `11.12.165.${80 + d}`;
const node2Ip = (d) => `11.12.165.${88 + d}`;
const node3Ip = (d) => `11.12.165.${96 + d}`;
const node7Ip = (d) => `11.12.165.${120 + d}`;
const a3Ip = (d) => `11.12.170.${80 + d}`;
const a3Vnic = (d) => `192.168.3.${10 + d}`;
/** The demo cluster: a2-node1 (a2-healthy) and a2-node2, whose device 3 has lost its link. */
const PAIR_CLUSTER = 'examples/cluster/a2-pair.yaml';
/** The three A2 nodes of the Ansible example: a2-node1, a2-node3 (both healthy) and a2-node7 (broken). */
const TRIO_CLUSTER = 'examples/cluster/a2-trio.yaml';
/** every device of an A2 node answers the same-index pings to its peers */
const pingsTo = (...peers) => pingCommands(peers.flatMap((ip) => A2_DEVICES.map((d) => ({ device: d, address: ip(d) }))));

/** npu-smi info of the demo A2 and A3 hosts: the public captures with a 25.5.1 driver (test/fixtures/synthetic). */
const A2_TABLE = derived('npu-smi-info-910b3-a2x8-25.5.1-derived.txt');
const A3_TABLE = derived('npu-smi-info-a3-16chip-25.5.1-derived.txt');

/**
 * Weights in the Hugging Face cache, where vllm looks for a hub id without VLLM_USE_MODELSCOPE:
 * refs/main names the snapshot holding config.json, the index and the shards.
 */
const HF_REVISION = '5d1e2a9f0c7b4e6a8d3c1b0f9e8d7c6b5a4f3e2d';
const W8A8_HF_ENTRY = '/root/.cache/huggingface/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp';
const W8A8_MODELSCOPE_DIR = '/root/.cache/modelscope/hub/models/Eco-Tech/Qwen3___5-397B-A17B-w8a8-mtp';

function huggingFaceWeights(id, weights) {
  const entry = `/root/.cache/huggingface/hub/models--${id.replace(/\//g, '--')}`;
  const revision = HF_REVISION;
  const files = { [`${entry}/refs/main`]: `${revision}\n` };
  for (const [path, node] of Object.entries(modelScopeWeights(id, weights))) {
    files[path.replace(/^\/root\/\.cache\/modelscope\/hub\/models\/[^/]+\/[^/]+/, `${entry}/snapshots/${revision}`)] = node;
  }
  return files;
}

/**
 * What the read probe of model.load-time measured on a demo host's weights (Host.readThroughput):
 * 3 s of O_DIRECT reads at `rate` bytes per second from the first shards of `directory` (the
 * weights, or the Hugging Face cache entry their links point into), a local disk's figure.
 */
function readFigure(directory, shardsDir, shardCount, shardBytes, rate) {
  const shard = (i) => `${shardsDir}/model-${String(i + 1).padStart(5, '0')}-of-${String(shardCount).padStart(5, '0')}.safetensors`;
  const bytesRead = Math.min(rate * 3, 2 * GiB);
  return {
    [directory]: {
      method: 'direct',
      bytesRead,
      durationMs: Math.round((bytesRead / rate) * 1000),
      stoppedBy: bytesRead === 2 * GiB ? 'bytes' : 'time',
      cachedBytesAtMost: 0,
      holeBytesAtLeast: 0,
      files: Array.from({ length: shardCount }, (_, i) => ({ path: shard(i), size: shardBytes, residentBytes: 0, allocatedBytes: shardBytes })),
      reads: [{ path: shard(0), offset: 0, bytes: bytesRead }],
      opens: Array.from({ length: Math.min(4, shardCount) }, (_, i) => ({ path: shard(shardCount - 1 - i), ms: 0.4 })),
      fsMagic: EXT4,
    },
  };
}

/** A bare Atlas 800 A3 (openEuler, 8 cards x 2 dies, no CANN: it ships in the image), tuned, nothing listening. */
function a3Host({ hostname, address, ip, vnic, weights, readProbes = {} }) {
  return {
    identity: { hostname, arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
    env: HOST_ENV,
    files: {
      ...baseFiles({ os: OPENEULER, memTotalKb: 1_584_000_000, memAvailableKb: 1_500_000_000 }),
      ...npuDevices(16),
      ...driverFiles({ versionInfo: derived('driver-version-info-25.5.1-minimal-derived.txt'), npuSmiDir: '/usr/local/sbin' }),
      ...hostMountinfo(),
      '/etc/hccn.conf': hccnConf(A3_DEVICES, ip),
      ...weights,
    },
    commands: [
      { argv: ['/usr/local/sbin/npu-smi', 'info'], stdout: A3_TABLE },
      { argv: ['/usr/local/sbin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910a-mindcluster-fixture.txt') },
      ...eccCommands('/usr/local/sbin/npu-smi', 2),
      ...hccnCommands({ devices: A3_DEVICES, ip, vnic }),
      ...spodCommands('/usr/local/sbin/npu-smi'),
    ],
    statfs: {
      '/dev/shm': { type: TMPFS, totalBytes: 756 * GiB, freeBytes: 756 * GiB, availableBytes: 756 * GiB },
      '/root/.cache': { type: EXT4, totalBytes: 7000 * GiB, freeBytes: 5200 * GiB, availableBytes: 5000 * GiB },
    },
    interfaces: hostNetwork(address),
    readProbes,
  };
}

/**
 * The guide's PD script with its placeholders filled in for one node, as an operator would:
 * the NIC, this node's address, and (decode nodes) the address of decode node 0.
 */
function filledPdScript(name, { nodeIp, masterIp }) {
  const replacements = [
    ['nic_name="xxx"', 'nic_name="enp189s0f0"'],
    ['local_ip="xxx"', `local_ip="${nodeIp}"`],
    ...(name === 'run_p.sh' ? [] : [['node0_ip="xxxx"', `node0_ip="${masterIp}"`]]),
  ];
  let text = guideScript(name);
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`${name}: no ${from}`);
    text = text.replace(from, to);
  }
  return text;
}

/** A guide's script with its placeholders filled in for one node, as an operator would. */
function filledScript(name, replacements) {
  let text = guideScript(name);
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`${name}: no ${from}`);
    text = text.replace(from, to);
  }
  return text;
}

/** The three A3 nodes of the guide's 1P1D deployment: prefill node, decode node 0 (rank 0), decode node 1. */
const PD_NODES = [
  { name: 'a3-pd-prefill', hostname: 'a3-pd-node1', address: '10.20.3.41', profile: 'qwen3.5-397b-pd-prefill-a3', script: 'run_p.sh', deviceNet: 171 },
  { name: 'a3-pd-decode0', hostname: 'a3-pd-node2', address: '10.20.3.42', profile: 'qwen3.5-397b-pd-decode-a3', script: 'run_d0.sh', deviceNet: 172 },
  { name: 'a3-pd-decode1', hostname: 'a3-pd-node3', address: '10.20.3.43', profile: 'qwen3.5-397b-pd-decode-a3', script: 'run_d1.sh', deviceNet: 173 },
];
const PD_DECODE_MASTER = PD_NODES[1].address;

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
        ...A800I_A2_DMI,
        ...driverFiles({ versionInfo: derived('driver-version-info-25.5.1-minimal-derived.txt') }),
        ...containerFiles(GUIDE_MOUNTS),
        ...CANN_8_3,
      },
      commands: [
        { argv: ['/usr/local/bin/npu-smi', 'info'], stdout: A2_TABLE },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt') },
        ...eccCommands('/usr/local/bin/npu-smi', 1),
        ...hccnCommands({ devices: A2_DEVICES, ip: node1Ip }),
        ...pingCommands(A2_DEVICES.map((d) => ({ device: d, address: node2Ip(d), lost: d === 3 }))),
        ...pingsTo(node3Ip, node7Ip),
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 1 * GiB, freeBytes: 1 * GiB, availableBytes: 1 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 3500 * GiB, freeBytes: 2100 * GiB, availableBytes: 2000 * GiB },
      },
      interfaces: hostNetwork('10.20.0.11'),
    },
    clusters: [PAIR_CLUSTER, TRIO_CLUSTER],
  },
  {
    name: 'a2-node2',
    profile: 'qwen3.5-397b-w8a8-a2',
    spec: {
      identity: { hostname: 'a2-node2', arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
      env: CONTAINER_ENV,
      files: {
        ...baseFiles({ os: UBUNTU, memTotalKb: 1_584_000_000, memAvailableKb: 1_480_000_000 }),
        ...npuDevices(8),
        ...A800I_A2_DMI,
        ...driverFiles({ versionInfo: derived('driver-version-info-25.5.1-minimal-derived.txt') }),
        ...containerFiles([...GUIDE_MOUNTS, '/etc/hccn.conf']),
        '/etc/hccn.conf': hccnConf(A2_DEVICES, node2Ip),
        ...CANN_8_3,
      },
      commands: [
        { argv: ['/usr/local/bin/npu-smi', 'info'], stdout: A2_TABLE },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt') },
        ...eccCommands('/usr/local/bin/npu-smi', 1),
        // device 3 lost its link (a pulled optic): DOWN, net health Fault, no LLDP neighbour
        ...hccnCommands({ devices: A2_DEVICES, ip: node2Ip, down: [3] }),
        ...pingCommands(A2_DEVICES.filter((d) => d !== 3).map((d) => ({ device: d, address: node1Ip(d) }))),
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 1 * GiB, freeBytes: 1 * GiB, availableBytes: 1 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 3500 * GiB, freeBytes: 2100 * GiB, availableBytes: 2000 * GiB },
      },
      interfaces: hostNetwork('10.20.0.12'),
    },
    clusters: [PAIR_CLUSTER],
  },
  {
    name: 'a3-healthy',
    profile: 'qwen3.5-397b-w8a8-a3',
    spec: a3Host({
      hostname: 'a3-node1',
      address: '10.20.1.21',
      ip: a3Ip,
      vnic: a3Vnic,
      weights: modelScopeWeights('Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', W8A8),
      // on the local NVMe root, read at 2.4 GB/s
      readProbes: readFigure(W8A8_MODELSCOPE_DIR, W8A8_MODELSCOPE_DIR, W8A8.shards, Math.ceil(W8A8.bytes / W8A8.shards), 2.4e9),
    }),
    // the guide's single-node script as published (qprep check --launch)
    launch: 'qwen3.5-397b-w8a8-a3-single-node.sh',
  },
  {
    name: '300i-duo-healthy',
    profile: 'qwen3.5-dense-300i-duo',
    spec: {
      identity: { hostname: 'duo-node1', arch: 'aarch64', kernel: '5.10.0-216.0.0.115.oe2203sp4.aarch64' },
      env: { ...CONTAINER_ENV, PATH: `${IMAGE_PYTHON}/bin:${CONTAINER_ENV.PATH}`, SOC_VERSION: IMAGE_SOC._310P },
      files: {
        ...baseFiles({ os: UBUNTU, memTotalKb: 527_000_000, memAvailableKb: 480_000_000 }),
        ...imagePython('_310P'),
        ...modelScopeWeights('Qwen/Qwen3.5-2B', DENSE['2B']),
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
      // the container's overlay root on a SATA SSD: 480 MB/s
      readProbes: readFigure('/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-2B', '/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-2B', 1, DENSE['2B'].bytes, 480e6),
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
        ...A800I_A2_DMI,
        // started without -v /etc/ascend_install.info: npu-smi warns, npu.driver-files names the flag
        ...driverFiles({ versionInfo: derived('driver-version-info-26.1.0-minimal-derived.txt'), installInfo: false }),
        ...containerFiles(GUIDE_MOUNTS.filter((p) => p !== '/etc/ascend_install.info')),
        ...CANN_8_3,
      },
      commands: [
        { argv: ['/usr/local/bin/npu-smi', 'info'], stdout: derived('npu-smi-info-910b3-26.1.0-npu5-warning-incomplete-driver-derived.txt') },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'board', '-i', '0'], stdout: capture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt') },
        { argv: ['/usr/local/bin/npu-smi', 'info', '-t', 'health', '-i', '5', '-c', '0'], stdout: capture('npu-smi-info-t-health-warning-errorcode-testfixture.txt') },
        // NPU 5's HBM: uncorrectable errors since the driver loaded, two pages retired (derived from the capture)
        ...eccCommands('/usr/local/bin/npu-smi', 1, { 5: derived('npu-smi-info-t-ecc-hbm-uncorrectable-retired-derived.txt') }),
        ...hccnCommands({ devices: A2_DEVICES, ip: node7Ip }),
        ...pingsTo(node1Ip, node3Ip),
      ],
      statfs: {
        '/dev/shm': { type: TMPFS, totalBytes: 1 * GiB, freeBytes: 1 * GiB, availableBytes: 1 * GiB },
        '/root/.cache': { type: EXT4, totalBytes: 3500 * GiB, freeBytes: 2100 * GiB, availableBytes: 2000 * GiB },
      },
      interfaces: hostNetwork('10.20.0.17'),
    },
    clusters: [TRIO_CLUSTER],
  },
];

// A third healthy A2 with its own hostname, host address and device addresses: with a2-healthy and
// a2-broken, the three nodes of examples/cluster/a2-trio.yaml (the Ansible example's test runs
// against them).
const a2Healthy = demos.find((demo) => demo.name === 'a2-healthy');
demos.push({
  name: 'a2-healthy-node3',
  profile: a2Healthy.profile,
  spec: {
    ...a2Healthy.spec,
    identity: { ...a2Healthy.spec.identity, hostname: 'a2-node3' },
    commands: [
      ...a2Healthy.spec.commands.filter((command) => command.argv[0] !== HCCN_TOOL),
      ...hccnCommands({ devices: A2_DEVICES, ip: node3Ip }),
      ...pingsTo(node1Ip, node7Ip),
    ],
    interfaces: hostNetwork('10.20.0.13'),
  },
  clusters: [TRIO_CLUSTER],
});

// An A2 that is up but not healthy: device 4's port went down and came back 12 hours before the
// read, device 6's module receives a third of its peers' light on lane 1. Recorded at --depth deep
// (a replay runs deep too): hccn.link-stability and hccn.optics warn, every other check as on
// a2-healthy. On its NPU side, NPU 3's HBM has had uncorrectable errors since the driver loaded
// and two pages retired (npu.ecc fails it, action isolate-npu): the node is not ready.
demos.push({
  name: 'a2-link-flap',
  profile: a2Healthy.profile,
  depth: 'deep',
  spec: {
    ...a2Healthy.spec,
    identity: { ...a2Healthy.spec.identity, hostname: 'a2-node5' },
    commands: [
      ...a2Healthy.spec.commands.filter((command) => command.argv[0] !== HCCN_TOOL && !(command.argv[2] === '-t' && command.argv[3] === 'ecc')),
      ...eccCommands('/usr/local/bin/npu-smi', 1, { 3: derived('npu-smi-info-t-ecc-hbm-uncorrectable-retired-derived.txt') }),
      ...hccnCommands({ devices: A2_DEVICES, ip: (d) => `11.12.165.${104 + d}`, flap: [4], weak: [6] }),
    ],
    interfaces: hostNetwork('10.20.0.15'),
  },
});

// Node 0 of the w8a8 model on two Atlas 800 A2 (vllm-ascend's Qwen3.5-397B-A17B tutorial, DP 2 x TP 8
// with expert parallelism), inside the vllm-ascend container, its script filled in for this node:
// model.fit plans the weights and the KV cache of one rank of that deployment.
demos.push({
  name: 'a2-w8a8-node0',
  profile: a2Healthy.profile,
  spec: {
    ...a2Healthy.spec,
    identity: { ...a2Healthy.spec.identity, hostname: 'a2-mp-node0' },
    env: { ...CONTAINER_ENV, PATH: `${IMAGE_PYTHON}/bin:${CONTAINER_ENV.PATH}`, SOC_VERSION: IMAGE_SOC.A2 },
    files: {
      ...a2Healthy.spec.files,
      ...imagePython('A2'),
      ...modelScopeWeights('Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', W8A8),
    },
    interfaces: hostNetwork('10.20.0.21'),
    // the host's NVMe behind the container's overlay root, read at 2.4 GB/s
    readProbes: readFigure(W8A8_MODELSCOPE_DIR, W8A8_MODELSCOPE_DIR, W8A8.shards, Math.ceil(W8A8.bytes / W8A8.shards), 2.4e9),
  },
  launch: 'qwen3.5-397b-w8a8-a2-node0.sh',
  launchText: filledScript('qwen3.5-397b-w8a8-a2-node0.sh', [
    ['nic_name="xxxx"', 'nic_name="enp189s0f0"'],
    ['local_ip="xxxx"', 'local_ip="10.20.0.21"'],
  ]),
});

// The 310P guide's Qwen3.5-4B and -9B scripts on the same 300I Duo host as its 2B one.
const duo = demos.find((demo) => demo.name === '300i-duo-healthy');
for (const size of ['4B', '9B']) {
  const files = Object.fromEntries(Object.entries(duo.spec.files).filter(([path]) => !path.startsWith('/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-2B/')));
  demos.push({
    name: `300i-duo-${size.toLowerCase()}`,
    profile: duo.profile,
    spec: {
      ...duo.spec,
      identity: { ...duo.spec.identity, hostname: `duo-node-${size.toLowerCase()}` },
      files: { ...files, ...modelScopeWeights(`Qwen/Qwen3.5-${size}`, DENSE[size]) },
      // the same SATA SSD as the 2B host's: 480 MB/s
      readProbes: readFigure(`/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-${size}`, `/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-${size}`, 1, DENSE[size].bytes, 480e6),
    },
    launch: `qwen3.5-${size.toLowerCase()}-310p.sh`,
  });
}

// The 1P1D deployment of the Qwen3.5-397B guide on three A3 hosts, each with its filled-in script:
// qprep aggregate over their reports judges the ranks, the master address and the KV sizes.
for (const node of PD_NODES) {
  demos.push({
    name: node.name,
    profile: node.profile,
    spec: a3Host({
      hostname: node.hostname,
      address: node.address,
      ip: (d) => `11.12.${node.deviceNet}.${80 + d}`,
      vnic: (d) => `192.168.${node.deviceNet - 167}.${10 + d}`,
      weights: huggingFaceWeights('Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', W8A8),
      readProbes: readFigure(W8A8_HF_ENTRY, `${W8A8_HF_ENTRY}/snapshots/${HF_REVISION}`, W8A8.shards, Math.ceil(W8A8.bytes / W8A8.shards), 2.4e9),
    }),
    launch: node.script,
    launchText: filledPdScript(node.script, { nodeIp: node.address, masterIp: PD_DECODE_MASTER }),
  });
}

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
// cluster files are named relative to the repository, as the README's commands name them
process.chdir(REPO);
for (const demo of demos) {
  const recorder = new RecordingHost(new MemoryHost(demo.spec));
  const loaded = await loadProfile(demo.profile);
  // the launch script as `qprep snapshot --launch FILE` records it, from the working directory
  const launch = demo.launch ? { file: demo.launch, text: demo.launchText ?? guideScript(demo.launch), from: 'file' } : undefined;
  const handle = { host: recorder, source: { kind: 'live', root: '/' }, ...(launch ? { launch } : {}) };
  const run = await performCheck(handle, loaded, demo.depth ? { depth: demo.depth } : {}, { now: () => CREATED });
  // A cluster member is recorded a second time as a node of its cluster, so that its snapshot also
  // answers "qprep check --snapshot X --cluster Y" (the pings); the report kept is the single-node one.
  for (const cluster of demo.clusters ?? []) await performCheck(handle, loaded, { cluster }, { now: () => CREATED });
  // and at --depth deep, so that every demo answers the link diagnostics too
  if (demo.depth !== 'deep' && demo.spec.commands.some((c) => c.argv[0] === HCCN_TOOL)) await performCheck(handle, loaded, { depth: 'deep' }, { now: () => CREATED });
  await recorder.interfaces();
  // the profile is recorded as `qprep snapshot` records it: a replay without --profile judges with it
  const snapshot = {
    ...(await recorder.toSnapshot({ name: 'qprep', version: VERSION }, CREATED)),
    report: stable(run.report, demo.name),
    ...runSettingsRecord(loaded, undefined, undefined, demo.depth),
  };
  if (launch) snapshot.launch = { file: launch.file, text: redactScript(launch.text) };
  const file = join(outDir, `${demo.name}.json`);
  writeFileSync(file, `${JSON.stringify(snapshot, null, 1)}\n`);
  const { summary, ready } = run.report;
  console.log(`${file}: ${ready ? 'ready' : 'NOT READY'} (${summary.pass} pass, ${summary.warn} warn, ${summary.fail} fail, ${summary.skip} skip, ${summary.error} error)`);
}

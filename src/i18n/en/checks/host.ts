import type { CheckEntries } from '../../types.js';

/** The checks host.*: host resources (memory, shm, disk, server model). One entry per check id. */
export const host = {
  'host.model': {
    title: 'Server model for the profile',
    why:
      'A profile is written for one server generation: an Atlas 800 A3 runs 16 dies with TP16 and an A3 super pod, ' +
      'an Atlas 800 A2 has 8 NPUs. Run on the wrong server, the NPU count, the HCCL settings and the parallel layout ' +
      'of the profile are all wrong at once, and the launch fails late (or runs at half the size). The DMI product ' +
      'name of the server says which generation it is.',
    reads: ['/sys/class/dmi/id/product_name', '/sys/class/dmi/id/sys_vendor', 'systeminformation system()'],
    fix: 'Run the profile written for this server (qprep list --profiles shows the family of each), or run on the server the profile is for.',
    noFamily: (p: { profile: string }) => `the profile ${p.profile} names no NPU family (npu.family: any)`,
    setFamily: 'set npu.family (a2, a3, 310p) in the profile, or use a built-in deployment profile, to have the server model checked',
    unknownModel: (p: { why: string }) => `the server model is unknown (${p.why}): not judged`,
    readDmi: 'run qprep where /sys/class/dmi/id is readable (on the host, or with the host root mounted: --root)',
    generalServer: (p: { server: string }) => `the server is ${p.server}: 300I Duo and 200I Pro cards go into general servers, whose model does not name the NPU family`,
    cardsJudged: 'nothing to do here: npu.count and npu.devices judge the cards',
    notAtlas: (p: { server: string }) => `the server is ${p.server}, not an Atlas A2/A3 model qprep recognizes: the family is judged by the NPU checks`,
    npusJudged: 'nothing to do here: npu.count and npu.devices judge the NPUs of this server',
    matches: (p: { server: string; family: string; profile: string }) => `${p.server} is an ${p.family} server, as profile ${p.profile} expects`,
    mismatch: (p: { server: string; family: string; profile: string; wanted: string }) =>
      `${p.server} is an ${p.family} server, but profile ${p.profile} is for ${p.wanted}`,
    useProfileFor: (p: { family: string; wanted: string }) =>
      `run with a profile for ${p.family} (qprep list --profiles shows the family of each), or run this profile on an ${p.wanted} server`,
  },
  'host.shm': {
    title: 'Shared memory (/dev/shm)',
    why:
      'vLLM passes tensors between its API server, engine core and workers through /dev/shm. Docker gives a container ' +
      '64 MiB unless --shm-size says otherwise, and the engine core then dies with a core dump at start-up ' +
      '(vllm-ascend #3513); the guides start containers with --shm-size=1g or more.',
    reads: ['statfs(/dev/shm)'],
    fix: 'Start the container with --shm-size (e.g. --shm-size=16g); on a host, remount /dev/shm with a larger size.',
    recreate: (p: { size: number }) => `re-create the container with docker run --shm-size=${p.size}g`,
    missing: (p: { path: string }) => `${p.path} does not exist`,
    startWithShm: 'start the container with --shm-size=16g (Docker mounts /dev/shm then)',
    cannotStat: (p: { problem: string }) => `cannot stat ${p.problem}`,
    makeAccessible: (p: { path: string }) => `make ${p.path} accessible and re-run`,
    tooSmall: (p: { path: string; total: string; min: string }) => `${p.path} is ${p.total}, expected at least ${p.min}`,
    tooFull: (p: { path: string; available: string; total: string; min: string }) =>
      `${p.path} has ${p.available} free of ${p.total}, expected at least ${p.min} free: leftovers of a previous run?`,
    removeStale: (p: { path: string; grow: string }) => `look for stale segments with "ls -la ${p.path}" and remove those of processes that are gone, or ${p.grow}`,
    passed: (p: { path: string; total: string; available: string }) => `${p.path} is ${p.total} with ${p.available} free`,
  },
  'host.memory': {
    title: 'Available host memory',
    why:
      'Weights are read through host memory while they are loaded onto the NPUs, and the engine, tokenizer and CPU ' +
      'workers live there too. A host (or a container memory limit) with too little available memory is killed by ' +
      'the OOM killer half-way through a 30-minute load.',
    reads: ['/proc/meminfo', '/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'],
    fix: 'Stop what holds the memory, or raise the container memory limit (docker run --memory), or lower the profile threshold.',
    cannotRead: (p: { problem: string }) => `cannot read ${p.problem}`,
    mountProc: (p: { path: string }) => `make ${p.path} readable (mount /proc) and re-run`,
    noFields: (p: { path: string }) => `${p.path} has no MemTotal/MemAvailable lines`,
    kernelFile: (p: { path: string }) => `check that ${p.path} is the kernel's file`,
    available: (p: { available: string; total: string }) => `${p.available} available of ${p.total}`,
    underLimit: (p: { headroom: string; limit: string; available: string }) =>
      `${p.headroom} left under the container limit of ${p.limit} (host: ${p.available} available)`,
    tooLittle: (p: { where: string; min: string }) => `${p.where}, expected at least ${p.min} available`,
    largerLimit: 'free memory on the host or re-create the container with a larger --memory limit',
    stopHolders: 'stop the processes holding memory (ps aux --sort=-rss | head), or lower host.memoryMinAvailable in the profile',
  },
  'host.disk': {
    title: 'Free disk space for the weights',
    why:
      'Qwen3.5-397B-A17B is about 400 GB in w8a8 and 800 GB in BF16; a download or conversion that runs out of space ' +
      'half-way leaves a broken checkpoint. The guides download weights to /root/.cache (ideally a directory shared by ' +
      'all nodes); the profile names the directories and the space they need.',
    reads: ['statfs(<each host.disk path of the profile>)'],
    fix: 'Free space on that filesystem, or put the weights elsewhere and set host.disk in the profile.',
    noDirectory: 'no weight directory configured (host.disk is empty in the profile)',
    cannotMeasure: (p: { problem: string }) => `cannot measure free space: ${p.problem}`,
    makeAccessible: (p: { path: string }) => `make ${p.path} accessible and re-run`,
    free: (p: { path: string; measuredOn: string | null; available: string }) =>
      `${p.path}${p.measuredOn !== null ? ` (not created yet; measured on ${p.measuredOn})` : ''}: ${p.available} free`,
    short: (p: { free: string; min: string }) => `${p.free}, expected at least ${p.min}`,
    freeSpace: (p: { path: string }) =>
      `free space on the filesystem of ${p.path} (du -xsh ${p.path}/* | sort -h | tail), or point host.disk in the profile at the directory that will hold the weights`,
  },
} satisfies CheckEntries;

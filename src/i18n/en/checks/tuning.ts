import { plural } from '../../../util/text.js';
import type { CheckEntries } from '../../types.js';

/** "on the host (not in the container): " before a remediation that must run outside the container */
const onHost = (inContainer: boolean) => (inContainer ? 'on the host (not in the container): ' : '');

/** The checks cpu.*, sysctl.*, sched.*, mem.*, python.*, model.*, tune.journal: tuning, Python and the model. One entry per check id. */
export const tuning = {
  'cpu.governor': {
    title: 'CPU frequency governor',
    why:
      'vLLM schedules NPU work from host threads; a power-saving governor (ondemand, powersave, schedutil) lets cores ' +
      'drop their clock between kernel launches, which adds latency jitter to every decode step and to the HCCL ' +
      'collectives. The vllm-ascend tuning guide sets "performance" on every CPU.',
    reads: [
      '/sys/devices/system/cpu/online',
      '/sys/devices/system/cpu/cpuN/cpufreq/scaling_governor',
      '/sys/devices/system/cpu/cpuN/cpufreq/scaling_available_governors',
    ],
    fix: 'Write the governor to every CPU (qprep tune does it, journaled) or set the BIOS power profile to performance.',
    notPossibleList: (p: { path: string; reason: string }) => `${p.path} is not a possible CPU list: ${p.reason} (the kernel's NR_CPUS)`,
    notCpulist: (p: { path: string }) => `${p.path} is not a cpulist`,
    cannotList: (p: { problem: string }) => `cannot list CPUs: ${p.problem}`,
    mountSys: (p: { root: string }) => `make ${p.root} readable (mount /sys) and re-run`,
    noOnlineCpu: (p: { root: string }) => `no online CPU found in ${p.root}`,
    checkSysfs: (p: { root: string }) => `check that ${p.root} is the host's sysfs`,
    cannotRead: (p: { reason: string }) => `cannot read the governor: ${p.reason}`,
    readAsRoot: 'run qprep as a user that can read /sys/devices/system/cpu (root on hardened hosts)',
    noCpufreq: (p: { root: string; cpu: number }) =>
      `cpufreq is not exposed here (no ${p.root}/cpu${p.cpu}/cpufreq): the hypervisor or the container runtime controls CPU frequency`,
    noCpufreqFix:
      'nothing to do here; on bare metal, load the cpufreq driver (acpi-cpufreq, intel_pstate, cppc_cpufreq) or set the BIOS power profile to performance',
    allRight: (p: { cpus: number; governor: string; withoutCpufreq: number }) =>
      `all ${plural(p.cpus, 'online CPU')} use the ${p.governor} governor${p.withoutCpufreq ? ` (${plural(p.withoutCpufreq, 'CPU')} without cpufreq)` : ''}`,
    /** one governor and the CPUs on it: "powersave on cpu 0-3" */
    onCpus: (p: { governor: string; cpus: string }) => `${p.governor} on cpu ${p.cpus}`,
    onCpusSeparator: '; ',
    wrong: (p: { wrong: number; cpus: number; governor: string; actual: string }) =>
      `${p.wrong} of ${plural(p.cpus, 'CPU')} do not use the ${p.governor} governor: ${p.actual}`,
    wrongNotOffered: (p: { wrong: number; cpus: number; governor: string; actual: string; offered: string }) =>
      `${p.wrong} of ${plural(p.cpus, 'CPU')} do not use the ${p.governor} governor: ${p.actual}; the cpufreq driver offers only ${p.offered}`,
    biosProfile: (p: { inContainer: boolean; governor: string }) =>
      `${onHost(p.inContainer)}set the BIOS/firmware power profile to maximum performance, or load a cpufreq driver that offers "${p.governor}"`,
    tune: (p: { inContainer: boolean; governor: string; root: string }) =>
      `${onHost(p.inContainer)}sudo qprep tune --only cpu.governor   (or: echo ${p.governor} | sudo tee ${p.root}/cpu*/cpufreq/scaling_governor)`,
  },
  'sysctl.numa-balancing': {
    title: 'kernel.numa_balancing',
    why:
      'Automatic NUMA balancing unmaps pages to sample access patterns and migrates them between nodes in the ' +
      'background. On multi-socket Ascend servers, where vllm-ascend binds workers to the CPUs near their NPU, ' +
      'that only adds page faults and latency spikes; the tuning guide sets kernel.numa_balancing=0.',
    reads: ['/proc/sys/kernel/numa_balancing'],
    fix: 'sysctl -w kernel.numa_balancing=0 (qprep tune; --persist writes /etc/sysctl.d/90-qprep.conf).',
    absent: (p: { path: string }) => `${p.path} does not exist: this kernel has no automatic NUMA balancing (CONFIG_NUMA_BALANCING off)`,
    nothingToTurnOff: 'nothing to do: there is no NUMA balancing to turn off',
    cannotRead: (p: { reason: string }) => `cannot read kernel.numa_balancing: ${p.reason}`,
    mountProc: (p: { path: string }) => `make ${p.path} readable (mount /proc) and re-run`,
    right: (p: { value: number }) => `kernel.numa_balancing is ${p.value}`,
    wrong: (p: { value: number; target: number }) => `kernel.numa_balancing is ${p.value}, expected ${p.target}`,
    tune: (p: { inContainer: boolean; target: number }) =>
      `${onHost(p.inContainer)}sudo qprep tune --only sysctl.numa-balancing   (or: sudo sysctl -w kernel.numa_balancing=${p.target})`,
  },
  'sysctl.swappiness': {
    title: 'vm.swappiness',
    why:
      'Swapping out pages of a serving process turns a millisecond decode step into a second-long stall. ' +
      'The vllm-ascend tuning guide sets vm.swappiness=0 (0 or 1 recommended) so the kernel reclaims page cache ' +
      'before it swaps anonymous memory.',
    reads: ['/proc/sys/vm/swappiness', '/proc/meminfo'],
    fix: 'sysctl -w vm.swappiness=0 (qprep tune; --persist writes /etc/sysctl.d/90-qprep.conf).',
    cannotRead: (p: { reason: string }) => `cannot read vm.swappiness: ${p.reason}`,
    mountProc: (p: { path: string }) => `make ${p.path} readable (mount /proc) and re-run`,
    right: (p: { value: number }) => `vm.swappiness is ${p.value}`,
    wrong: (p: { value: number; max: number; noSwap: boolean }) =>
      `vm.swappiness is ${p.value}, expected at most ${p.max}${p.noSwap ? ' (no swap is configured now, so it matters once swap is added)' : ''}`,
    tune: (p: { inContainer: boolean; target: number }) =>
      `${onHost(p.inContainer)}sudo qprep tune --only sysctl.swappiness   (or: sudo sysctl -w vm.swappiness=${p.target})`,
  },
  'sched.migration-cost': {
    title: 'Scheduler migration cost',
    why:
      'sched_migration_cost_ns is how long a task counts as cache-hot and is kept on its CPU. The deployment guides ' +
      'set kernel.sched_migration_cost_ns=50000 (range 50000-100000). Kernels from 5.13 on moved the knob to ' +
      '/sys/kernel/debug/sched/migration_cost_ns, where "sysctl -w" fails, so the setting silently never happens.',
    reads: ['/proc/sys/kernel/sched_migration_cost_ns', '/sys/kernel/debug/sched/migration_cost_ns'],
    fix: 'Write the value to whichever of the two files this kernel has (qprep tune picks the right one).',
    rootOnly: (p: { debugfs: string }) => `${p.debugfs} is readable by root only (this kernel keeps the knob in debugfs)`,
    notMounted: (p: { sysctl: string; debugfs: string }) =>
      `neither ${p.sysctl} nor ${p.debugfs} exists: the kernel keeps the knob in debugfs, which is not mounted`,
    runAsRoot: 'run "sudo qprep check" to assess it',
    mountDebugfs: 'sudo mount -t debugfs none /sys/kernel/debug, then re-run',
    cannotRead: (p: { reason: string }) => `cannot read the migration cost: ${p.reason}`,
    makeReadable: (p: { path: string }) => `make ${p.path} readable and re-run`,
    right: (p: { value: number; path: string }) => `migration cost is ${p.value} ns (${p.path})`,
    wrong: (p: { value: number; min: number; max: number }) => `migration cost is ${p.value} ns, expected ${p.min}-${p.max} ns`,
    tune: (p: { inContainer: boolean; manual: string }) =>
      `${onHost(p.inContainer)}sudo qprep tune --only sched.migration-cost   (or: ${p.manual})`,
  },
  'mem.jemalloc': {
    title: 'jemalloc for LD_PRELOAD',
    why:
      'The deployment guides preload jemalloc (export LD_PRELOAD=/usr/lib/$(uname -i)-linux-gnu/libjemalloc.so.2) to cut ' +
      'allocator lock contention and fragmentation in the many-threaded vLLM workers. The path differs by architecture ' +
      'and distribution (openEuler: /usr/lib64), and a wrong entry in LD_PRELOAD makes ld.so print "cannot be preloaded" ' +
      'and run without it.',
    reads: [
      '/usr/lib/<arch>-linux-gnu/libjemalloc.so.2',
      '/lib/<arch>-linux-gnu/libjemalloc.so.2',
      '/usr/lib64/libjemalloc.so.2',
      '/lib64/libjemalloc.so.2',
      '/usr/local/lib/libjemalloc.so.2',
      '/usr/local/lib64/libjemalloc.so.2',
      '/usr/lib/libjemalloc.so.2',
      'ldconfig -p',
      'LD_PRELOAD',
    ],
    fix: 'Install jemalloc with the distribution package manager and preload the path qprep prints (qprep env prints the export line).',
    /** the install line when the distribution's package manager is unknown */
    installAny: (p: { library: string }) => `install jemalloc (${p.library})`,
    brokenPreload: (p: { entries: string; arch: string }) => `LD_PRELOAD names ${p.entries}, which does not exist on this ${p.arch} host; ld.so will skip it`,
    brokenPreloadFix: (p: { fix: string }) => `${p.fix}   (qprep env prints the right line for this host)`,
    cannotTell: (p: { library: string; problem: string }) => `cannot tell whether ${p.library} is installed: ${p.problem}`,
    checkLdconfig: 'check that ldconfig works on this host (ldconfig -p), then re-run',
    notInstalled: (p: { library: string; arch: string; searched: string }) => `${p.library} is not installed for ${p.arch} (searched ${p.searched})`,
    installAndPreload: (p: { install: string; path: string }) => `${p.install}\nexport LD_PRELOAD=${p.path}:$LD_PRELOAD   # in the launch script (qprep env prints it)`,
    found: (p: { library: string; path: string; preloaded: boolean }) =>
      `${p.library} found at ${p.path}${p.preloaded ? ', preloaded' : `; preload it with export LD_PRELOAD=${p.path}:$LD_PRELOAD`}`,
  },
  'python.triton-ascend': {
    title: 'No triton / triton-ascend on a 310P',
    why:
      'The Atlas 300I Duo / 200I Pro guide has triton-ascend and triton uninstalled (pip uninstall -y triton-ascend ' +
      'triton) to avoid dependency conflicts: the 310P is not a Triton target, and the packages come with a source ' +
      'install of vllm-ascend, so a 310P host set up from source carries them.',
    reads: ['the vllm (or python3) the launch script runs, on PATH', 'its #! line', 'site-packages/*.dist-info', 'npu-smi info (the NPU family)'],
    fix: 'Uninstall them with the Python that runs vllm: python3 -m pip uninstall -y triton-ascend triton.',
    familySeen: (p: { family: string }) => `npu-smi shows ${p.family}`,
    familyUnknown: 'npu-smi does not tell the family',
    familyUnread: (p: { problem: string }) => `npu-smi: ${p.problem}`,
    notA310p: (p: { seen: string; profileFamily: string }) =>
      `only a 310P must be without triton, and this is not one (${p.seen}; profile npu.family ${p.profileFamily})`,
    notA310pFix: 'nothing to do on this family; on a 310P that npu-smi cannot identify, set npu.family: 310p in the profile',
    noPython: (p: { searched: string }) => `no vllm or python3 found here to look into (searched ${p.searched}); run qprep inside the serving container`,
    noSitePackages: (p: { python: string }) => `no site-packages directory found for ${p.python}; run qprep where vllm is installed`,
    inContainer: 'docker exec -it <container> qprep check --only python.triton-ascend',
    clean: (p: { python: string; via: string; sitePackages: string }) => `no triton or triton-ascend for ${p.python} (${p.via}) in ${p.sitePackages}`,
    installed: (p: { found: string; python: string }) => `${p.found} installed for ${p.python} on a 310P host; the 310P guide has them uninstalled`,
  },
  'model.weights': {
    title: 'Model weights present and sized for the NPUs',
    why:
      'vllm serve loads the weights only after minutes of start-up: a model directory without config.json, with a shard ' +
      'its index lists missing (an interrupted download), non-quantized weights under --quantization ascend, or a hub ' +
      'id that is not in the local cache (vLLM then downloads hundreds of GB, or fails offline) is found here instead. ' +
      'The size is compared, roughly, with the NPU memory vLLM may use.',
    reads: ['the --launch script (never executed)', 'the model directory (config.json, *.safetensors, the index)', 'the Hugging Face / ModelScope cache', 'npu-smi info'],
    fix: 'Point vllm serve at the directory that holds the complete weights, download the missing shards, or use more NPUs (a larger --tensor-parallel-size).',
    memoryNotCompared: (p: { problem: string }) => `NPU memory not compared (${p.problem})`,
    noMemorySize: 'NPU memory not compared (npu-smi shows no memory size)',
    share: (p: {
      perDevice: string;
      total: string;
      shards: number;
      expertParallel: boolean;
      budget: string;
      kind: string;
      utilization: number;
      memory: string;
      used: string;
      device: number;
    }) =>
      `~${p.perDevice} per NPU (${p.total} over ${plural(p.shards, 'NPU')}${p.expertParallel ? ', experts over TP x DP' : ''}) of ${p.budget} ${p.kind} budget ` +
      `(${p.utilization} x ${p.memory} - ${p.used} used, device ${p.device})`,
    shards: (p: { count: number; size: string }) => `${plural(p.count, 'safetensors shard')} (${p.size})`,
    otherWeights: (p: { files: string; size: string }) => `${p.files} (${p.size})`,
    allInIndex: (p: { count: number; index: string }) => `all ${p.count} in ${p.index}`,
    /** the parts of the files summary: "4 safetensors shards (16 GB), all 4 in model.safetensors.index.json" */
    partsSeparator: ', ',
    namesNoModel: (p: { script: string }) => `${p.script} names no model to check (launch.script / launch.flags say why)`,
    placeholder: (p: { script: string; at: string; placeholder: string }) =>
      `the model of ${p.script} (${p.at}) is the placeholder ${p.placeholder}: no weights to look for (launch.placeholders names it)`,
    placeholderFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: vllm serve <the weights directory or hub id>`,
    dynamic: (p: { script: string; at: string; reason: string }) =>
      `the model of ${p.script} (${p.at}) is computed at run time (${p.reason}): the weights cannot be checked`,
    dynamicFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: vllm serve /path/to/weights   # written literally`,
    relative: (p: { model: string; at: string }) => `the model "${p.model}" (${p.at}) is a relative path: it depends on the directory the script is started from`,
    relativeFix: (p: { script: string; line: number; path: string }) => `${p.script} line ${p.line}: vllm serve /absolute/path/to/${p.path}`,
    cacheNotCaptured: (p: { id: string; searched: string }) =>
      `the cache entries of ${p.id} were not captured in the snapshot (${p.searched}): the weights cannot be judged from it`,
    recordSnapshot: (p: { script: string }) => `record the snapshot with this script: qprep snapshot -o host.json --launch ${p.script}`,
    downloadModelscope: (p: { id: string }) => `modelscope download --model ${p.id}   # into the ModelScope cache vllm reads (VLLM_USE_MODELSCOPE)`,
    downloadHuggingFace: (p: { id: string }) => `huggingface-cli download ${p.id}   # into the Hugging Face cache vllm reads`,
    notCached: (p: { id: string; at: string; hub: 'modelscope' | 'huggingface'; searched: string }) =>
      `${p.id} (${p.at}) is a ${p.hub === 'modelscope' ? 'ModelScope' : 'Hugging Face'} id that is not in the local cache (${p.searched})`,
    downloadElsewhere: (p: { download: string; script: string; line: number; name: string }) =>
      `${p.download}\nor download it to a directory and serve that: ${p.script} line ${p.line}: vllm serve /path/to/${p.name}`,
    notCachedOffline: (p: { text: string }) => `${p.text}, and the hub is offline (HF_HUB_OFFLINE): vllm cannot load it`,
    notCachedOnline: (p: { text: string }) => `${p.text}: vllm downloads it at start, which takes long for large models and fails without internet`,
    cachedAt: (p: { id: string; path: string }) => `${p.id} (cached at ${p.path})`,
    dirNotCaptured: (p: { path: string }) => `${p.path} was not captured in the snapshot: the weights cannot be judged from it`,
    noDirectory: (p: { path: string; at: string }) => `the model directory ${p.path} (${p.at}) does not exist`,
    downloadTo: (p: { path: string; script: string; line: number; live: boolean }) =>
      `download the weights to ${p.path}, or correct ${p.script} line ${p.line}${p.live ? ' (in a container: mount it, docker run -v /root/.cache:/root/.cache)' : ''}`,
    gguf: (p: { path: string }) => `${p.path} is a GGUF file`,
    cannotReadDir: (p: { path: string; problem: string }) => `cannot read the model directory ${p.path}: ${p.problem}`,
    makeReadableDir: (p: { path: string }) => `make ${p.path} a readable directory of weights`,
    configProblem: (p: { where: string; problem: string | null }) => `${p.where}: ${p.problem ?? 'config.json unreadable'}`,
    copyConfig: (p: { path: string }) => `copy config.json of the model into ${p.path} (it comes with the weights)`,
    indexProblem: (p: { where: string; problem: string }) => `${p.where}: ${p.problem}`,
    downloadIndex: (p: { path: string }) => `download the index again into ${p.path}`,
    missingShards: (p: { where: string; count: number; shards: string }) => `${p.where} lacks ${plural(p.count, 'shard')} its index lists: ${p.shards}`,
    downloadAgain: (p: { id: string }) => `download ${p.id} again (the cache resumes the missing files)`,
    copyShards: (p: { path: string }) => `copy the missing shards into ${p.path}, or download the model again`,
    noWeights: (p: { where: string }) => `${p.where} holds no weights (*.safetensors, *.bin)`,
    downloadWeights: (p: { path: string }) => `download the weights into ${p.path}`,
    notQuantized: (p: { where: string }) => `--quantization ascend, but ${p.where} has no quant_model_description*.json: these are not Ascend-quantized weights`,
    useQuantized: (p: { at: string }) => `use the quantized weights (e.g. the -w8a8 model), or drop --quantization ascend at ${p.at}`,
    problems: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
    overBudget: (p: { share: string }) => `the weights do not fit: ${p.share}`,
    moreNpus: (p: { tp: number }) =>
      `use more NPUs: --tensor-parallel-size ${p.tp} (with the devices to match), or a quantized model, or free the NPUs (npu-smi info shows what holds them)`,
    nearBudget: (p: { share: string }) => `the weights leave little room for the KV cache: ${p.share}`,
    raiseUtilization: (p: { tp: number }) => `raise --gpu-memory-utilization a little, use more NPUs (--tensor-parallel-size ${p.tp}), or a quantized model`,
    fits: (p: { where: string; files: string; share: string }) => `${p.where}: ${p.files}; ${p.share}`,
  },
  'tune.journal': {
    title: 'qprep tune journal',
    why:
      'qprep tune writes the old value of every setting it changes to a journal before it changes anything. A tune that ' +
      'was killed, or whose undo failed, leaves settings half applied: some CPUs on one governor and some on another, ' +
      'a sysctl changed but not verified. This check finds that journal so the host can be put back with qprep rollback, ' +
      'and otherwise says which qprep changes are in effect.',
    reads: ['/var/lib/qprep/journal.json'],
    fix: 'sudo qprep rollback restores the old values from the journal (also those of an interrupted tune), then retires it.',
    noJournal: 'qprep tune has no changes in effect here (no journal)',
    rootOnly: (p: { journal: string }) => `${p.journal} is readable by root only`,
    runAsRoot: 'run "sudo qprep check" to assess it',
    cannotRead: (p: { reason: string }) => `cannot read the tune journal: ${p.reason}`,
    makeReadable: (p: { journal: string }) => `make ${p.journal} readable and re-run`,
    damaged: (p: { reason: string }) => `the tune journal is damaged: ${p.reason}`,
    restoreByHand: (p: { journal: string }) => `restore what ${p.journal} lists by hand, then move it aside: sudo mv ${p.journal} ${p.journal}.damaged`,
    unfinished: (p: { command: string; startedAt: string; interrupted: boolean; changes: number }) =>
      `"${p.command}" started ${p.startedAt} ${p.interrupted ? 'did not finish (it was interrupted, or is running right now)' : 'failed and could not undo all of its changes'}: ` +
      `${plural(p.changes, 'change')} may be half applied`,
    rollback: (p: { rollback: string; journal: string }) => `${p.rollback}   (restores the old values from ${p.journal})`,
    nothingInEffect: 'qprep tune has no changes in effect here',
    inEffect: (p: { changes: number; since: string; rollback: string }) =>
      `${plural(p.changes, 'setting')} changed by qprep tune since ${p.since} are in effect (undo: ${p.rollback})`,
  },
} satisfies CheckEntries;

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
    residual: (p: { paths: string; python: string; rule: string }) =>
      `${p.paths} is left for ${p.python} without its dist-info (what pip uninstall leaves behind): Python still imports it as triton on this 310P (${p.rule})`,
    installed: (p: { found: string; python: string }) => `${p.found} installed for ${p.python} on a 310P host; the 310P guide has them uninstalled`,
  },
  'model.weights': {
    title: 'Model weights present and complete',
    why:
      'vllm serve loads the weights only after minutes of start-up: a model directory without config.json, with a shard ' +
      'its index lists missing (an interrupted download), non-quantized weights under --quantization ascend, or a hub ' +
      'id that is not in the local cache (vLLM then downloads hundreds of GB, or fails offline) is found here instead. ' +
      'Whether they fit the NPU memory is model.fit.',
    reads: ['the --launch script (never executed)', 'the model directory (config.json, *.safetensors, the index)', 'the Hugging Face / ModelScope cache'],
    fix: 'Point vllm serve at the directory that holds the complete weights, or download the missing files.',
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
    fits: (p: { where: string; files: string }) => `${p.where}: ${p.files}`,
  },
  'model.fit': {
    title: 'The deployment fits the NPU memory: weights, KV cache, concurrency',
    why:
      'vLLM prints how much memory the weights take, what is left for the KV cache, how many tokens it holds and how many ' +
      'requests of --max-model-len it serves at once only after loading the weights, which takes up to half an hour for a ' +
      'large model; it refuses to start when no memory is left for the cache, when one request of --max-model-len does not ' +
      'fit, or when other processes hold the memory --gpu-memory-utilization asks for. This computes the same figures from ' +
      'config.json, the weights on disk, the launch flags and npu-smi, as the installed vllm-ascend release does.',
    reads: ['the --launch script (never executed)', "the model's config.json and safetensors index (or qprep's table of model configs)", 'npu-smi info', "vllm-ascend's version in the Python the script runs"],
    fix: 'Give the deployment more memory per request: a larger --tensor-parallel-size, a shorter --max-model-len, a higher --gpu-memory-utilization, or free the NPUs; the finding names the value.',
    what: 'the memory plan',
    noModel: (p: { script: string }) => `${p.script} names no model to plan (launch.script / launch.flags say why)`,
    unknownModel: (p: { at: string; model: string }) => `the model at ${p.at} (${p.model}) is not a literal path or hub id: the plan needs it`,
    unknownModelFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: vllm serve /path/to/weights   # written literally`,
    encoderOnly: (p: { at: string }) =>
      `the server is the encoder instance of disaggregated encoding (ec_role ec_producer, ${p.at}): it keeps no KV cache, so there is no memory plan to make`,
    encoderOnlyFix: 'nothing to do here; the prefill/decode instance that consumes its encodings is the one to plan (qprep check --launch on its script)',
    callerSizes: (p: { script: string }) => `the parallel sizes of ${p.script} are left to its caller or invalid (launch.flags says which): no plan`,
    callerSizesFix: (p: { script: string }) => `give the sizes literally, or check the launcher that fills in ${p.script}: qprep check --launch launcher.sh --launch ${p.script}`,
    noMemorySize: 'npu-smi shows no memory size for the NPUs this server uses: no plan',
    noMemorySizeFix: 'run npu-smi info on this node: every NPU row should show its HBM (or, on 310P, DDR) usage',
    summary: (p: {
      model: string;
      basis: 'config.json' | 'builtin';
      weights: string;
      weightsEstimated: boolean;
      kv: string;
      utilization: number;
      visible: string;
      device: number;
      tokens: string | null;
      concurrency: string | null;
      maxModelLen: string | null;
    }) =>
      `${p.model} (${p.basis === 'builtin' ? "qprep's table" : 'config.json'}): ${p.weightsEstimated ? '~' : ''}${p.weights} of weights per NPU, ${p.kv} for the KV cache ` +
      `(of ${p.utilization} x ${p.visible} on device ${p.device})` +
      (p.tokens !== null ? `: ${p.tokens} tokens, ${p.concurrency}x requests of ${p.maxModelLen} tokens` : ''),
    problems: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${plural(p.more, 'more finding', 'more findings')})` : ''}`,
    /** a warning with the plan it is about: vLLM would start, and this is what it would start with */
    warnWithPlan: (p: { finding: string; weights: string; weightsEstimated: boolean; kv: string }) =>
      `${p.finding}; ${p.weightsEstimated ? '~' : ''}${p.weights} of weights per NPU, ${p.kv} for the KV cache`,
    alignment: (p: { model: string; tp: number }) =>
      `vllm-ascend refuses ${p.model} at TP ${p.tp}: its linear-attention state does not fill whole attention pages ("Cannot align ssm_page_size and attn_page_size.")`,
    alignmentFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: another --tensor-parallel-size   # one that divides linear_num_value_heads into a state of whole K pages`,
    freeBelow: (p: { device: number; free: string; visible: string; utilization: number; requested: string; inUse: string }) =>
      `device ${p.device} has ${p.free} free of ${p.visible}, less than --gpu-memory-utilization ${p.utilization} asks (${p.requested}): ` +
      `vLLM refuses to start ("Free memory on device ... is less than desired GPU memory utilization"); ${p.inUse} is in use already`,
    freeBelowFix: (p: { script: string; line: number; lower: number; device: number; inUse: string }) =>
      `stop what holds ${p.inUse} on device ${p.device} (npu-smi info lists it)\n${p.script} line ${p.line}: --gpu-memory-utilization ${p.lower}   # at most what is free; the KV cache shrinks with it`,
    weightsOver: (p: { weights: string; requested: string; utilization: number; visible: string }) =>
      `the weights do not fit: ${p.weights} per NPU, more than the ${p.requested} vLLM may use (${p.utilization} x ${p.visible})`,
    noCache: (p: { weights: string; requested: string; overhead: string; others: string | null; kv: string }) =>
      `no memory is left for the KV cache: ${p.requested} - ${p.weights} of weights - ${p.overhead} of activations and buffers` +
      `${p.others !== null ? ` - ${p.others} of other processes` : ''} = ${p.kv}: vLLM refuses ("No available memory for the cache blocks")`,
    largerTp: (p: { script: string; line: number; tp: number; npus: number }) =>
      `${p.script} line ${p.line}: --tensor-parallel-size ${p.tp}   # ${p.npus} NPUs per node; the weights per NPU shrink with it`,
    quantizedOrMore: 'a quantized model (W8A8), or more NPUs (a larger --tensor-parallel-size, or --pipeline-parallel-size across nodes)',
    raiseUtilization: (p: { script: string; line: number; utilization: number }) => `${p.script} line ${p.line}: --gpu-memory-utilization ${p.utilization}   # the least that fits`,
    oneRequest: (p: { maxModelLen: number; needed: string; kv: string; fits: number }) =>
      `one request of --max-model-len ${p.maxModelLen} needs ${p.needed} of KV cache, more than the ${p.kv} left for it: vLLM refuses to start` +
      `${p.fits > 0 ? ` (it estimates ${p.fits} tokens fit)` : ''}`,
    shorterContext: (p: { script: string; line: number; maxModelLen: number }) => `${p.script} line ${p.line}: --max-model-len ${p.maxModelLen}   # the longest one request fits in`,
    smallerKvDtype: 'or a 1-byte KV cache where vllm-ascend supports it for this model (--kv-cache-dtype int8): half the bytes per token',
    notSized: (p: { where: string | null; keys: string; model: string }) =>
      `the KV cache of ${p.model} is not sized: ${p.where ?? 'no config.json and no row of qprep\'s table'}${p.where !== null ? ' lacks' : ' for'} ${p.keys}`,
    notSizedFix: (p: { directory: string | null }) =>
      p.directory !== null ? `put the model's complete config.json in ${p.directory} (it comes with the weights)` : "download the weights (their config.json sizes the cache), or run qprep on the node that has them",
    lowConcurrency: (p: { tokens: string; concurrency: string; maxModelLen: string; seqs: number }) =>
      `the KV cache (${p.tokens} tokens) holds ${p.concurrency}x requests of ${p.maxModelLen} tokens, fewer than --max-num-seqs ${p.seqs}: long requests queue`,
    contextForSeqs: (p: { script: string; line: number; maxModelLen: number; seqs: number }) =>
      `${p.script} line ${p.line}: --max-model-len ${p.maxModelLen}   # ${p.seqs} requests of that length fit at once`,
    fewerSeqs: (p: { script: string; line: number; seqs: number }) => `${p.script} line ${p.line}: --max-num-seqs ${p.seqs}   # what the cache holds at the full length`,
    builtin: (p: { model: string; keys: number; local: boolean }) =>
      p.local
        ? `the plan takes ${p.keys} values config.json lacks from qprep's table (${p.model}): an estimate`
        : `the weights are not on this node: the plan rests on qprep's table of model configs (${p.model}) and the parameter count it gives, an estimate`,
    builtinFix: (p: { id: string; directory: string | null }) =>
      p.directory !== null ? `put the model's complete config.json in ${p.directory}, then check again` : `download ${p.id} to the node (its config.json and shard sizes replace the estimate), then check again`,
    streams: (p: { sizes: number; resources: number; factor: number; streams: number; limit: number; max: number; mode: string }) =>
      `${p.sizes} graph capture sizes x ${p.resources} streams x ${p.factor} (${p.mode}) = ${p.streams} streams, over the ${p.limit} of 2048 per device vllm-ascend budgets ` +
      `(vllm_ascend/utils.py update_aclgraph_sizes, up to v0.20): those releases capture ${p.max} sizes only; later ones capture all and, on this driver (before HDK 25.5.1), may fail with 207008 "Stream resources are insufficient"`,
    streamsFix: (p: { script: string; line: number; max: number }) =>
      `${p.script} line ${p.line}: --compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY"}'   # one graph per size, not per layer\ngive at most ${p.max} sizes in "cudagraph_capture_sizes"`,
  },
  'model.load-time': {
    title: 'Weights load within the start-up timeouts',
    why:
      'vLLM waits VLLM_ENGINE_READY_TIMEOUT_S (600 s by default) for its engines to load the weights, profile the KV cache ' +
      'and capture graphs; a 397 B model read from network storage at 200 MB/s needs half an hour, and the start ends with ' +
      '"Timed out waiting for engine core processes to start", or it looks hung at one shard. On several nodes, a node ' +
      'that is ready two minutes before a slower one times out on HCCL_CONNECT_TIMEOUT. This check reads a few seconds of ' +
      'real shard bytes, past the page cache where it can, to time the storage, and compares the load it predicts with ' +
      'the timeouts the script leaves in force.',
    reads: [
      'the --launch script (never executed)',
      'the model directory and its shards: at most 2 GiB for at most 3 s, once per filesystem (--no-io-probe: none)',
      '/proc/self/mountinfo',
      'fincore (util-linux), for what the page cache holds',
      'vllm/envs.py of the Python the script runs, for its defaults',
    ],
    fix:
      'Raise VLLM_ENGINE_READY_TIMEOUT_S above the load (the export line), copy the weights to a local NVMe disk, or on ' +
      'network storage load them with --safetensors-load-strategy eager.',
    noModel: (p: { script: string }) => `${p.script} names no model whose weights can be read (launch.script / model.weights say why)`,
    notLocal: 'the weights are not in a local directory yet (model.weights says why): nothing to time',
    unreadable: 'the weights directory cannot be read (model.weights says why): nothing to time',
    noWeights: 'the weights directory holds no weights to read (model.weights says why)',
    followWeights: 'fix what model.weights reports; once the weights are in a local directory, this check times their load',
    probeOff: (p: { bytes: string }) => `the I/O probe is off (--no-io-probe): the load of ${p.bytes} of weights is not timed`,
    probeOffFix: 'run qprep check without --no-io-probe (the probe reads at most 2 GiB for at most 3 s, once per filesystem)',
    notCaptured: (p: { directory: string }) => `the snapshot holds no read figure of ${p.directory}: the load cannot be timed from it`,
    recordAgain: (p: { script: string }) => `record the snapshot with this script: qprep snapshot -o host.json --launch ${p.script}`,
    probeFailed: (p: { problem: string }) => `could not read the weights to time their storage: ${p.problem}`,
    probeFailedFix: (p: { directory: string }) => `make the shards under ${p.directory} readable by the user that runs qprep (and vllm), then check again`,
    nothingRead: (p: { storage: string; seconds: number }) => `the storage (${p.storage}) delivered no byte of the weights in ${p.seconds} s: vllm will not load them`,
    nothingReadFix: (p: { mountPoint: string }) => `check the mount of ${p.mountPoint} (its server, its network, dmesg), then run qprep check again`,
    storageMounted: (p: { filesystem: string; source: string; mountPoint: string }) => `${p.filesystem} ${p.source} on ${p.mountPoint}`,
    storageType: (p: { filesystem: string }) => p.filesystem,
    storageUnknown: 'a filesystem of unknown type',
    estimate: (p: { bytes: string; storage: string; rate: string; seconds: number }) => `reading ${p.bytes} of weights from ${p.storage} at ${p.rate} takes ~${p.seconds} s`,
    timeout: (p: { variable: string; seconds: number; origin: string }) => `${p.variable} ${p.seconds} s (${p.origin})`,
    originScript: (p: { at: string }) => p.at,
    originEnvironment: 'inherited from the environment',
    originDefault: (p: { version: string | null }) => (p.version ? `the default of vLLM ${p.version}` : "the default of the installed vLLM's envs.py"),
    originDefaultUnread: (p: { version: string | null }) =>
      p.version ? `vLLM's default; the envs.py of vLLM ${p.version} was not read` : "vLLM's default; no installed vLLM was found",
    originDefaultOf: (p: { component: string }) => `the ${p.component} default`,
    originFixed: (p: { version: string | null }) => `fixed in vLLM ${p.version ?? 'as installed'}, which does not read VLLM_ENGINE_READY_TIMEOUT_S`,
    over: (p: { estimate: string; timeout: string }) => `${p.estimate}, more than ${p.timeout}: vllm gives up ("Timed out waiting for engine core processes to start") before the weights are in`,
    overHalf: (p: { estimate: string; timeout: string }) => `${p.estimate}, more than half of ${p.timeout}: KV-cache profiling and graph capture come after the load, within the same wait`,
    within: (p: { estimate: string; timeout: string }) => `${p.estimate}, within ${p.timeout}`,
    cachedRead: (p: { text: string }) =>
      `${p.text}; but the page cache served the probe's read: the storage's own speed was not measured, and a start after a reboot reads from it`,
    cacheUnknown: (p: { text: string; why: string }) => `${p.text}; whether the page cache served the probe's read cannot be told (${p.why}): the storage may be slower`,
    sparseRead: (p: { text: string; holes: string }) =>
      `${p.text}; but at least ${p.holes} of the probe's read were holes of sparse shard files, which no storage delivers: the storage's own speed was not measured`,
    stalled: (p: { text: string; seconds: number }) => `${p.text} (a read did not return within ${p.seconds} s)`,
    timeoutComputed: (p: { text: string; at: string }) => `${p.text}; VLLM_ENGINE_READY_TIMEOUT_S at ${p.at} is computed at run time, so the default is what this judges against`,
    timeoutNotNumber: (p: { at: string; value: string }) => `VLLM_ENGINE_READY_TIMEOUT_S at ${p.at} is "${p.value}", not whole seconds: vllm cannot start with it`,
    timeoutIgnored: (p: { text: string; at: string; version: string | null }) =>
      `${p.text}; ${p.at} sets VLLM_ENGINE_READY_TIMEOUT_S, which vLLM ${p.version ?? 'as installed'} does not read (it came with vllm-project/vllm PR #27444)`,
    exportAt: (p: { script: string; line: number; value: number }) =>
      `${p.script} line ${p.line}: export VLLM_ENGINE_READY_TIMEOUT_S=${p.value}   # 2.5 x the estimated load: profiling and graph capture follow it`,
    exportBefore: (p: { script: string; line: number; value: number }) =>
      `${p.script}: export VLLM_ENGINE_READY_TIMEOUT_S=${p.value}   # before vllm serve (line ${p.line}); 2.5 x the estimated load`,
    upgradeVllm: (p: { version: string | null }) =>
      `vLLM ${p.version ?? 'as installed'} waits a fixed 600 s: upgrade to a vLLM that reads VLLM_ENGINE_READY_TIMEOUT_S (vllm-project/vllm PR #27444), or shorten the load:`,
    copyLocalTo: (p: { source: string; target: string; disk: string; free: string; script: string; line: number }) =>
      `or: copy the weights to a local disk: cp -rL ${p.source} ${p.target}   # ${p.disk}, ${p.free} free; then ${p.script} line ${p.line}: vllm serve ${p.target}`,
    copyLocal: (p: { source: string; name: string; script: string; line: number }) =>
      `or: copy the weights to a local NVMe disk: cp -rL ${p.source} /path/to/nvme/${p.name}; then ${p.script} line ${p.line}: vllm serve /path/to/nvme/${p.name}`,
    eager: (p: { script: string; line: number; filesystem: string }) =>
      `or: ${p.script} line ${p.line}: vllm serve ... --safetensors-load-strategy eager   # reads whole files in sequence instead of memory-mapped page faults, which ${p.filesystem} serves badly (vllm-project/vllm PR #24469)`,
    planStorage: (p: { storage: string; kind: string; read: string; seconds: number; method: string; opens: number; perShard: number | null; resident: string | null }) =>
      `storage: ${p.storage} (${p.kind}): read ${p.read} in ${p.seconds} s ${p.method}` +
      `${p.opens > 0 && p.perShard !== null ? `; ${plural(p.opens, 'shard')} opened, ${p.perShard} ms each (median)` : ''}` +
      `${p.resident !== null ? `; ${p.resident} of the weights in the page cache now` : ''}`,
    methodDirect: 'with O_DIRECT, past the page cache',
    methodUncached: 'from files with no page cached (fincore)',
    methodBuffered: 'through the page cache',
    planLine: (p: { variable: string; value: string; origin: string; mustExceed: string }) => `${p.variable} = ${p.value} (${p.origin}): ${p.mustExceed}`,
    planValue: (p: { seconds: number; unit: 's' | 'ms' }) => (p.unit === 'ms' ? `${Math.round(p.seconds * 1000)} ms` : `${p.seconds} s`),
    planUnusable: (p: { written: string }) => `"${p.written}", not evaluated`,
    mustExceedEngineReady: (p: { seconds: number | null }) =>
      `must exceed this node's load${p.seconds !== null ? `, ~${p.seconds} s,` : ''} plus KV-cache profiling and graph capture`,
    mustExceedHcclConnect: 'must exceed the gap between the first and the last node to finish loading (qprep aggregate compares the nodes)',
    mustExceedHcclExec: 'must exceed that gap too where the communicators are set up before the load, and the longest collective',
    mustExceedRpc: 'must exceed the longest call from the API server to the engine; not part of the load',
    mustExceedKvConnect: 'about 500 ms per decode card, to set up the KV connections to them (the vllm-ascend guides: rule mooncake.connect-timeout); not part of the load',
    mustExceedKvTransfer: 'must exceed the RDMA retransmission timeout times its 7 retries (the vllm-ascend guides: rule mooncake.transfer-timeout); not part of the load',
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

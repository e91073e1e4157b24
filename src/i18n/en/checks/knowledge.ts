import type { CheckEntries } from '../../types.js';

/**
 * The checks that judge the knowledge base of knowledge/ for the installed vllm-ascend: the NPU
 * family, the served model, the rules of the tutorials and the quantization rules. One entry per
 * check id.
 */
export const knowledge = {
  'npu.supported': {
    title: 'The NPU is one the installed vllm-ascend supports',
    why:
      'vllm-ascend runs on the Atlas A2 and A3 series and, experimentally, the Atlas 300I Duo (310P); the first-generation ' +
      'Ascend 910 and the 310B are "unplanned yet" in every release\'s FAQ, and from v0.12.0rc1 vllm-ascend stops at start ' +
      'on an SoC it does not know ("Can not support soc_version"). Some of those boards print "910B" as their name, so the ' +
      'family is told by the table\'s layout and its DDR column. A vllm-ascend built for one device type (its ' +
      '_build_info.py) refuses another. Judged for the installed release (knowledge/hardware.json, rules ' +
      'soc.runtime-guard and vllm-ascend.build-device-type of knowledge/rules.json). Required.',
    reads: [
      'npu-smi info (the layout, the chip names, the DDR column)',
      'the vllm-ascend of the Python the launch script runs: site-packages/vllm_ascend-*.dist-info/METADATA, vllm_ascend/_build_info.py',
      'knowledge/hardware.json, knowledge/rules.json (soc.runtime-guard, vllm-ascend.build-device-type)',
    ],
    fix: 'Serve on an NPU the release supports (A2, A3, or the 300I Duo), with the vllm-ascend build made for that NPU.',
    what: 'the NPU family against vllm-ascend',
    experimentalFamily: (p: { family: string }) => `${p.family} (experimental)`,
    installedRelease: (p: { release: string }) => `vllm-ascend ${p.release}`,
    judgedRelease: (p: { installed: string; release: string }) => `vllm-ascend ${p.installed} (judged by the FAQ of ${p.release})`,
    assumedRelease: (p: { release: string }) => `vllm-ascend ${p.release} (no vllm-ascend version found here: judged by the FAQ of the newest release)`,
    hardwareName: (p: { hardware: string; names: string }) =>
      p.hardware === '910'
        ? `this first-generation Ascend 910 (npu-smi names it ${p.names})`
        : p.hardware === '310'
          ? `this Ascend 310 (${p.names})`
          : `this Ascend ${p.hardware} (${p.names})`,
    faqSays: (p: { quote: string; source: string }) => `its FAQ says "${p.quote.replace(/^-\s*/, '')}" (${p.source})`,
    notInFaq: 'its FAQ does not list it',
    guard: (p: { tag: string }) => `; vllm-ascend stops at start on it with "RuntimeError: Can not support soc_version" (${p.tag})`,
    unsupported: (p: { hardware: string; release: string; statement: string; supported: string; guard: string }) =>
      `${p.hardware} is not supported by ${p.release}: ${p.statement}; it supports ${p.supported}${p.guard}`,
    unsupportedFix: (p: { supported: string; never: boolean }) =>
      `run the deployment on a node with NPUs vllm-ascend supports (${p.supported})${p.never ? '; no vllm-ascend release supports this one' : ''}`,
    buildMismatch: (p: { deviceType: string; path: string; hardware: string; tag: string }) =>
      `the installed vllm-ascend was built for ${p.deviceType} (${p.path}) and refuses to start on this ${p.hardware} NPU: "does not match the installed version's device type" (${p.tag})`,
    buildFix: (p: { hardware: string }) => `install the vllm-ascend built for ${p.hardware}: the release's image for ${p.hardware}, or a build with SOC_VERSION set to an ${p.hardware} chip`,
    notListed: (p: { hardware: string; release: string; supported: string }) => `${p.hardware} is not among the devices ${p.release} lists as supported (${p.supported})`,
    notListedFix: (p: { hardware: string }) => `use a vllm-ascend release whose FAQ lists ${p.hardware} ("What devices are currently supported?"), or serve on a listed NPU`,
    builtFor: (p: { deviceType: string }) => `, built for ${p.deviceType}`,
    supported: (p: { hardware: string; release: string; built: string }) => `${p.hardware} is supported by ${p.release}${p.built}`,
    experimental: (p: { hardware: string; release: string; built: string }) => `${p.hardware} is supported, as experimental, by ${p.release}${p.built}`,
    unknownLayout: (p: { layout: string }) => `npu-smi's table (layout ${p.layout}) shows no NPU family vllm-ascend's FAQ names: nothing to judge`,
    unknownLayoutFix: 'nothing to do for vllm-ascend; npu.smi shows the table',
  },
  'model.supported': {
    title: 'The served model is one the installed vllm-ascend supports',
    why:
      'A model vllm-ascend does not support yet fails only after the weights are loaded, minutes into the start: ' +
      'Qwen3.5 (model_type qwen3_5, qwen3_5_moe) is supported from v0.17.0rc1, DeepSeek-V4 from v0.20.2rc1, GLM-5 from ' +
      'v0.17.0rc1. The model is known by its config.json (model_type, architectures), else its name, and judged against ' +
      'the first release that supports it (its release notes or tutorial) and the releases whose support matrix lists ' +
      'it (knowledge/models.json). Required.',
    reads: [
      'the --launch script (never executed)',
      "the model's config.json (model_type, architectures)",
      'the vllm-ascend of the Python the launch script runs: site-packages/vllm_ascend-*.dist-info/METADATA',
      'knowledge/models.json',
    ],
    fix: 'Install a vllm-ascend release that supports the model (the first one the check names, or a later one), or serve a model the installed release supports.',
    noServer: (p: { script: string }) => `${p.script} starts no vLLM server: no model to judge`,
    noModel: (p: { script: string }) => `the server command of ${p.script} names no model (launch.flags says why)`,
    byModelType: (p: { modelType: string }) => `model_type ${p.modelType} of config.json`,
    byArchitectures: (p: { architectures: string }) => `architectures ${p.architectures} of config.json`,
    byName: (p: { name: string }) => `by its name ${p.name}, no config.json here`,
    notInTable: (p: { what: string }) => `${p.what} is none of the model families qprep knows (knowledge/models.json): not judged`,
    notInTableFix: 'nothing to do here; a family of the support matrix that knowledge/models.json lacks is added there (knowledge/README.md)',
    since: (p: { version: string; source: string }) => `supported from ${p.version} (${p.source})`,
    noFirst: 'no release is known to support it',
    noVersion: (p: { families: string; what: string; since: string }) => `no vllm-ascend version found here to judge ${p.families} (${p.what}) against: it is ${p.since}`,
    noVersionFix: 'run the check where the serving vllm-ascend is installed: docker exec -it <container> qprep check --launch SCRIPT',
    judgedAs: (p: { installed: string; release: string }) => `${p.installed} (judged as ${p.release})`,
    supported: (p: { families: string; what: string; release: string; since: string }) => `${p.families} (${p.what}) is supported by vllm-ascend ${p.release}: ${p.since}`,
    unsupported: (p: { families: string; what: string; release: string; first: string | null; quote: string; source: string }) =>
      p.first
        ? `${p.families} (${p.what}) is not supported by vllm-ascend ${p.release}: it is supported from ${p.first} (${p.source})`
        : `${p.families} (${p.what}) is not supported by vllm-ascend ${p.release}, nor by any release qprep knows`,
    upgradeFix: (p: { version: string; newest: string; vllm: string | null }) =>
      `install vllm-ascend ${p.version} or later (the newest release is ${p.newest}): the image quay.io/ascend/vllm-ascend:${p.version}, or pip install vllm-ascend==${p.version.replace(/^v/, '')} with ${p.vllm ? `vllm==${p.vllm.replace(/^v/, '')}, the vLLM it was released for` : 'the vLLM it was released for'}`,
    noFirstFix: 'serve a model the support matrix of the installed vllm-ascend lists',
  },
  'launch.model-rules': {
    title: 'The launch keeps the rules of its model and NPU for the installed vllm-ascend',
    why:
      'The tutorials state rules per model and per NPU that no flag parser knows: GLM-5 with MTP needs "enforce_eager": ' +
      'true in --speculative-config (a crash after a while without it), expert parallelism and transformers 5.2.0 or ' +
      'later; prefix caching on the hybrid Qwen3.5 needs --mamba-cache-mode align in the releases that say so; the 300I ' +
      'Duo / 200I Pro (310P) run float16 only and do not support npugraph_ex, on by default with FULL graphs until ' +
      'v0.23.0 turns it off itself; TorchAir graph mode (v0.9.0rc1 to v0.11.0) ran only the model types of each ' +
      "release's list, and from v0.12.0rc1 torchair_graph_config is ignored. Each rule is judged for the installed " +
      "release, inside the range its statements and public reports show (knowledge/rules.json); with no version found " +
      'the finding says what was assumed. Required.',
    reads: [
      'the --launch script (never executed)',
      "the model's config.json (model_type, architectures)",
      'npu-smi info (the NPU family), else the profile\'s npu.family',
      'the Python the launch script runs: vllm_ascend-*.dist-info and transformers-*.dist-info METADATA',
      'knowledge/rules.json, knowledge/models.json',
    ],
    fix: 'Change the flag on the line the check names, as it prints it, or install the package version it names.',
    noServer: (p: { script: string }) => `${p.script} starts no vLLM server: no launch to judge`,
    glm5Mtp: (p: { at: string; method: string; tag: string }) =>
      `GLM-5 with MTP ("method": "${p.method}", ${p.at}) runs without "enforce_eager": true in --speculative-config: GLM-5 does not support graph-mode speculative decoding (${p.tag})`,
    glm5MtpFix: (p: { script: string; line: number; value: string }) => `${p.script} line ${p.line}: --speculative-config '${p.value}'`,
    glm5ExpertParallel: (p: { script: string; tag: string }) =>
      `${p.script} serves GLM-5 without --enable-expert-parallel, which its tutorial says must be enabled for its MoE architecture (${p.tag})`,
    glm5ExpertParallelFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: add --enable-expert-parallel`,
    glm5Transformers: (p: { version: string; path: string; minimum: string; tag: string }) =>
      `transformers ${p.version} (${p.path}) does not know GLM-5's model_type glm_moe_dsa: it needs ${p.minimum} or later (${p.tag})`,
    glm5TransformersFix: (p: { python: string; minimum: string }) => `${p.python} -m pip install 'transformers>=${p.minimum}'`,
    qwen35PrefixCaching: (p: { at: string; tag: string }) =>
      `--enable-prefix-caching (${p.at}) on the hybrid Qwen3.5 without --mamba-cache-mode align (${p.tag})`,
    qwen35PrefixCachingFix: (p: { script: string; line: number }) =>
      `${p.script} line ${p.line}: --enable-prefix-caching --mamba-cache-mode align   # or --no-enable-prefix-caching`,
    fp16Only: (p: { dtype: string | null; tag: string }) =>
      `the 310P runs float16 only, and ${p.dtype !== null ? `--dtype is ${p.dtype}` : '--dtype is not set (a bfloat16 model loads as bfloat16)'} (${p.tag})`,
    fp16Fix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: --dtype float16`,
    ssmFp16: (p: { dtype: string | null; tag: string }) =>
      `the 310P keeps the Mamba SSM cache of Qwen3.5 in float16 only, and ${p.dtype !== null ? `--mamba-ssm-cache-dtype is ${p.dtype}` : '--mamba-ssm-cache-dtype is not set'} (${p.tag})`,
    ssmFp16Fix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: --mamba-ssm-cache-dtype float16`,
    npugraph: (p: { key: string; given: boolean; tag: string }) =>
      `the 310P does not support npugraph_ex, which runs with FULL graphs unless ${p.key} is false, and ${p.given ? '--additional-config does not set it' : 'there is no --additional-config'} (${p.tag})`,
    npugraphFix: (p: { script: string; line: number; value: string }) => `${p.script} line ${p.line}: --additional-config '${p.value}'`,
    torchairRemoved: (p: { at: string; tag: string }) => `torchair_graph_config (${p.at}) is ignored: TorchAir graph mode was removed, ACLGraph serves instead (${p.tag})`,
    torchairRemovedFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: remove "torchair_graph_config" from --additional-config   # ACLGraph is the graph mode now`,
    torchairEager: (p: { at: string; tag: string }) =>
      `torchair_graph_config is enabled (${p.at}) together with --enforce-eager: vllm-ascend refuses to start ("Can't enable graph mode and eager mode at the same time", ${p.tag})`,
    torchairEagerFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: "torchair_graph_config": {"enabled": false}   # or remove --enforce-eager`,
    torchairModelType: (p: { modelType: string }) => `model_type ${p.modelType} (the weights' config.json)`,
    torchairModelName: (p: { model: string }) => `${p.model} (by its name; the weights are not on this host to tell its model_type)`,
    torchairUnsupported: (p: { at: string; what: string; types: string; tag: string }) =>
      `torchair_graph_config is enabled (${p.at}) for ${p.what}, and TorchAir graph mode runs only the model types ${p.types}: vllm-ascend raises NotImplementedError at start (${p.tag})`,
    torchairUnsupportedFix: (p: { script: string; line: number }) =>
      `${p.script} line ${p.line}: "torchair_graph_config": {"enabled": false}   # the default graph mode (ACLGraph) serves this model`,
    held: (p: { rules: string | null; release: string; notJudged: string | null; assumed: string | null }) =>
      `${p.rules !== null ? `the launch keeps ${p.rules} (vllm-ascend ${p.release})` : `no rule of knowledge/rules.json applies to this model and NPU on vllm-ascend ${p.release}`}` +
      `${p.notJudged !== null ? `; not judged: ${p.notJudged} (see the evidence)` : ''}` +
      `${p.assumed !== null ? `; no vllm-ascend version found here, so judged as at the newest release, the launch breaks ${p.assumed}` : ''}`,
    assumedRule: (p: { rule: string; range: string }) => `${p.rule} (in force on ${p.range})`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  },
  'model.quantization': {
    title: "The quantized weights fit the NPU, dtype and TP the launch gives them",
    why:
      'msModelSlim W8A8 and W8A8_DYNAMIC weights run in bfloat16 on A2 and A3: with float16 the quantized matmul gets a ' +
      'float16 scale it does not take, and the engine fails at its first profile run with "Tensor scale not implemented ' +
      'for DT_FLOAT16, should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]" ' +
      '(vllm-project/vllm-ascend#7443, #12907: a failure on the releases they were seen on, a warning elsewhere). W8A8SC ' +
      'weights of the 310P are compressed for one TP size (one model-rank-N file per rank) and serve only with that ' +
      '--tensor-parallel-size. Judged from quant_model_description.json (model_quant_type), the launch flags and ' +
      "config.json's torch_dtype, for the installed release (knowledge/quantization.json). Required.",
    reads: [
      'the --launch script (never executed)',
      "the weights' quant_model_description.json (model_quant_type), config.json (torch_dtype) and file names",
      'npu-smi info (the NPU family), else the profile\'s npu.family',
      'the vllm-ascend of the Python the launch script runs (dist-info METADATA)',
      'knowledge/quantization.json',
    ],
    fix: 'Serve msModelSlim W8A8 weights with --dtype bfloat16 on A2/A3; serve W8A8SC weights with the TP size they were compressed for.',
    noServer: (p: { script: string }) => `${p.script} starts no vLLM server: no weights to judge`,
    notQuantized: (p: { model: string }) => `${p.model} carries no msModelSlim quantization description: no quantization rule applies`,
    noQuantType: (p: { file: string }) => `${p.file} names no model_quant_type: no quantization rule applies`,
    noWeights: (p: { model: string }) => `the weights of ${p.model} are not on this host: their quantization cannot be read`,
    noWeightsFix: 'run the check where the weights are (the serving node), or nothing to do',
    quantType: (p: { type: string; file: string }) => `msModelSlim ${p.type} weights (${p.file})`,
    quantTypeByName: (p: { model: string }) => `weights named ${p.model} (W8A8 by their name; no quant_model_description.json here to tell)`,
    dtypeFlag: (p: { dtype: string; at: string }) => `--dtype ${p.dtype} (${p.at})`,
    dtypeConfig: (p: { dtype: string }) => `torch_dtype ${p.dtype} of config.json (no --dtype)`,
    fp16: (p: { weights: string; dtype: string; hardware: string; tag: string }) =>
      `${p.weights} with ${p.dtype} on ${p.hardware}: the quantized matmul takes no float16 scale, and the engine fails at its first profile run with "Tensor scale not implemented for DT_FLOAT16, should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]" (${p.tag})`,
    fp16Fix: (p: { script: string; line: number; ssm: boolean }) => `${p.script} line ${p.line}: --dtype bfloat16${p.ssm ? ' --mamba-ssm-cache-dtype bfloat16' : ''}`,
    w8a8scTp: (p: { weights: string; ranks: number; tp: number; at: string; tag: string }) =>
      `${p.weights} were compressed for TP ${p.ranks} (model-rank-0..${p.ranks - 1} files), and the server runs --tensor-parallel-size ${p.tp} (${p.at}): W8A8SC weights are tied to their TP size (${p.tag})`,
    w8a8scTpFix: (p: { script: string; line: number; ranks: number }) =>
      `${p.script} line ${p.line}: --tensor-parallel-size ${p.ranks}   # or compress the w8a8s weights again with the TP size to serve (save_sharded_state_310.py --tensor-parallel-size)`,
    fits: (p: { weights: string; release: string }) => `${p.weights} fit this launch (vllm-ascend ${p.release})`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  },
} satisfies CheckEntries;

import type { knowledge as en } from '../../en/checks/knowledge.js';

/** a space after a Latin word before Chinese, none after a full-width parenthesis: "v0.23.0 支持", "（…）支持" */
const before = (text: string) => (/[）)]$/.test(text) ? text : `${text} `);

export const knowledge: typeof en = {
  'npu.supported': {
    title: 'NPU 属于已安装的 vllm-ascend 支持的型号',
    why:
      'vllm-ascend 运行在 Atlas A2、A3 系列上，并实验性支持 Atlas 300I Duo（310P）；第一代昇腾 910 和 310B 在每个版本的 FAQ 中都是 "unplanned yet"，' +
      '从 v0.12.0rc1 起 vllm-ascend 在它不认识的 SoC 上启动即停止（"Can not support soc_version"）。其中一些板卡的名称显示为 "910B"，' +
      '因此型号按表格的布局和 DDR 列判断。为某一设备类型构建的 vllm-ascend（其 _build_info.py）拒绝在其他类型上运行。' +
      '按已安装的版本判断（knowledge/hardware.json，knowledge/rules.json 中的 soc.runtime-guard 和 vllm-ascend.build-device-type 规则）。必需项。',
    reads: [
      'npu-smi info（布局、芯片名称、DDR 列）',
      '启动脚本所用 Python 中的 vllm-ascend：site-packages/vllm_ascend-*.dist-info/METADATA，vllm_ascend/_build_info.py',
      'knowledge/hardware.json，knowledge/rules.json（soc.runtime-guard，vllm-ascend.build-device-type）',
    ],
    fix: '在该版本支持的 NPU（A2、A3 或 300I Duo）上部署，并使用为该 NPU 构建的 vllm-ascend。',
    what: 'NPU 型号与 vllm-ascend 的匹配',
    experimentalFamily: (p) => `${p.family}（实验性）`,
    installedRelease: (p) => `vllm-ascend ${p.release}`,
    judgedRelease: (p) => `vllm-ascend ${p.installed}（按 ${p.release} 的 FAQ 判断）`,
    assumedRelease: (p) => `vllm-ascend ${p.release}（此处未找到 vllm-ascend 版本：按最新版本的 FAQ 判断）`,
    hardwareName: (p) =>
      p.hardware === '910' ? `这台第一代昇腾 910（npu-smi 显示名称为 ${p.names}）` : p.hardware === '310' ? `这台昇腾 310（${p.names}）` : `这台昇腾 ${p.hardware}（${p.names}）`,
    faqSays: (p) => `其 FAQ 写明 "${p.quote.replace(/^-\s*/, '')}"（${p.source}）`,
    notInFaq: '其 FAQ 未列出该型号',
    guard: (p) => `；vllm-ascend 在其上启动即报错 "RuntimeError: Can not support soc_version"（${p.tag}）`,
    unsupported: (p) => `${p.hardware}不受 ${before(p.release)}支持：${p.statement}；它支持 ${p.supported}${p.guard}`,
    unsupportedFix: (p) => `在配有 vllm-ascend 支持的 NPU（${p.supported}）的节点上部署${p.never ? '；没有任何 vllm-ascend 版本支持这种 NPU' : ''}`,
    buildMismatch: (p) =>
      `已安装的 vllm-ascend 为 ${p.deviceType} 构建（${p.path}），在这台 ${p.hardware} NPU 上会拒绝启动："does not match the installed version's device type"（${p.tag}）`,
    buildFix: (p) => `安装为 ${p.hardware} 构建的 vllm-ascend：该版本的 ${p.hardware} 镜像，或将 SOC_VERSION 设为 ${p.hardware} 芯片后构建`,
    notListed: (p) => `${p.hardware} 不在 ${p.release} 列出的支持设备中（它列出 ${p.supported}）`,
    notListedFix: (p) => `使用 FAQ（"What devices are currently supported?"）列出 ${p.hardware} 的 vllm-ascend 版本，或在列出的 NPU 上部署`,
    builtFor: (p) => `，为 ${p.deviceType} 构建`,
    supported: (p) => `${p.hardware} 受 ${before(p.release)}支持${p.built}`,
    experimental: (p) => `${p.hardware} 受 ${before(p.release)}实验性支持${p.built}`,
    unknownLayout: (p) => `npu-smi 的表格（布局 ${p.layout}）不对应 vllm-ascend FAQ 中的任何 NPU 型号：无可判断`,
    unknownLayoutFix: '对 vllm-ascend 无需处理；npu.smi 显示该表格',
  },
  'model.supported': {
    title: '所部署的模型受已安装的 vllm-ascend 支持',
    why:
      'vllm-ascend 尚不支持的模型要到权重加载完、启动数分钟后才失败：Qwen3.5（model_type qwen3_5、qwen3_5_moe）从 v0.17.0rc1 起支持，' +
      'DeepSeek-V4 从 v0.20.2rc1 起，GLM-5 从 v0.17.0rc1 起。模型按其 config.json（model_type、architectures）识别，没有时按名称，' +
      '并与首个支持它的版本（其发布说明或教程）以及支持矩阵列出它的版本比较（knowledge/models.json）。必需项。',
    reads: ['--launch 启动脚本（不会执行）', '模型的 config.json（model_type、architectures）', '启动脚本所用 Python 中的 vllm-ascend：site-packages/vllm_ascend-*.dist-info/METADATA', 'knowledge/models.json'],
    fix: '安装支持该模型的 vllm-ascend 版本（检查给出的首个版本或更新版本），或部署已安装版本支持的模型。',
    noServer: (p) => `${p.script} 不启动 vLLM 服务：没有可判断的模型`,
    noModel: (p) => `${p.script} 的服务命令没有指定模型（launch.flags 给出原因）`,
    byModelType: (p) => `config.json 的 model_type ${p.modelType}`,
    byArchitectures: (p) => `config.json 的 architectures ${p.architectures}`,
    byName: (p) => `依据名称 ${p.name}，此处没有 config.json`,
    notInTable: (p) => `${p.what} 不属于 qprep 已知的模型系列（knowledge/models.json）：未判断`,
    notInTableFix: '此处无需处理；knowledge/models.json 缺少的支持矩阵系列请在其中补充（knowledge/README.md）',
    since: (p) => `从 ${p.version} 起支持（${p.source}）`,
    noFirst: '不知道有任何版本支持它',
    noVersion: (p) => `此处未找到 vllm-ascend 版本，无法判断 ${p.families}（${p.what}）：它${p.since}`,
    noVersionFix: '在安装了提供服务的 vllm-ascend 的地方运行检查：docker exec -it <container> qprep check --launch SCRIPT',
    judgedAs: (p) => `${p.installed}（按 ${p.release} 判断）`,
    supported: (p) => `${p.families}（${p.what}）受 vllm-ascend ${p.release} 支持：${p.since}`,
    unsupported: (p) =>
      p.first
        ? `${p.families}（${p.what}）不受 vllm-ascend ${p.release} 支持：它从 ${p.first} 起才受支持（${p.source}）`
        : `${p.families}（${p.what}）不受 vllm-ascend ${p.release} 支持，qprep 已知的任何版本也不支持`,
    upgradeFix: (p) =>
      `安装 vllm-ascend ${p.version} 或更新版本（最新版本为 ${p.newest}）：镜像 quay.io/ascend/vllm-ascend:${p.version}，或 pip install vllm-ascend==${p.version.replace(/^v/, '')} 并配合${p.vllm ? `其发布时对应的 vllm==${p.vllm.replace(/^v/, '')}` : '其发布时对应的 vLLM'}`,
    noFirstFix: '部署已安装的 vllm-ascend 支持矩阵中列出的模型',
  },
  'launch.model-rules': {
    title: '启动遵守其模型与 NPU 在已安装 vllm-ascend 上的规则',
    why:
      '教程针对每个模型和每种 NPU 给出了参数解析器不知道的规则：GLM-5 开启 MTP 需要在 --speculative-config 中设置 "enforce_eager": true' +
      '（否则运行一段时间后崩溃），还需要专家并行和 5.2.0 及以上的 transformers；混合结构的 Qwen3.5 开启前缀缓存时，相应版本要求 --mamba-cache-mode align；' +
      '300I Duo / 200I Pro（310P）只支持 float16，也不支持 npugraph_ex，而它在 FULL 图模式下默认开启，直到 v0.23.0 才由 vllm-ascend 自行关闭；' +
      'TorchAir 图模式（v0.9.0rc1 至 v0.11.0）只运行各版本列表中的 model_type，从 v0.12.0rc1 起 torchair_graph_config 被忽略。' +
      '每条规则按已安装的版本判断，适用范围由其陈述和公开报告确定（knowledge/rules.json）；找不到版本时，结果会说明所作的假设。必需项。',
    reads: [
      '--launch 启动脚本（不会执行）',
      '模型的 config.json（model_type、architectures）',
      'npu-smi info（NPU 型号），否则取 profile 的 npu.family',
      '启动脚本所用的 Python：vllm_ascend-*.dist-info 与 transformers-*.dist-info 的 METADATA',
      'knowledge/rules.json，knowledge/models.json',
    ],
    fix: '按检查给出的内容修改其指出的行上的参数，或安装其指出的软件包版本。',
    noServer: (p) => `${p.script} 不启动 vLLM 服务：没有可判断的启动`,
    glm5Mtp: (p) => `GLM-5 开启了 MTP（"method": "${p.method}"，${p.at}），但 --speculative-config 中没有 "enforce_eager": true：GLM-5 不支持图模式投机解码（${p.tag}）`,
    glm5MtpFix: (p) => `${p.script} 第 ${p.line} 行：--speculative-config '${p.value}'`,
    glm5ExpertParallel: (p) => `${p.script} 部署 GLM-5 时没有 --enable-expert-parallel，而其教程说明 MoE 架构必须开启它（${p.tag}）`,
    glm5ExpertParallelFix: (p) => `${p.script} 第 ${p.line} 行：添加 --enable-expert-parallel`,
    glm5Transformers: (p) => `transformers ${p.version}（${p.path}）不认识 GLM-5 的 model_type glm_moe_dsa：需要 ${p.minimum} 或更新版本（${p.tag}）`,
    glm5TransformersFix: (p) => `${p.python} -m pip install 'transformers>=${p.minimum}'`,
    qwen35PrefixCaching: (p) => `混合结构的 Qwen3.5 使用了 --enable-prefix-caching（${p.at}），但没有 --mamba-cache-mode align（${p.tag}）`,
    qwen35PrefixCachingFix: (p) => `${p.script} 第 ${p.line} 行：--enable-prefix-caching --mamba-cache-mode align   # 或 --no-enable-prefix-caching`,
    fp16Only: (p) => `310P 只支持 float16，而${p.dtype !== null ? ` --dtype 为 ${p.dtype}` : '未设置 --dtype（bfloat16 模型会按 bfloat16 加载）'}（${p.tag}）`,
    fp16Fix: (p) => `${p.script} 第 ${p.line} 行：--dtype float16`,
    ssmFp16: (p) => `310P 上 Qwen3.5 的 Mamba SSM 缓存只能为 float16，而${p.dtype !== null ? ` --mamba-ssm-cache-dtype 为 ${p.dtype}` : '未设置 --mamba-ssm-cache-dtype'}（${p.tag}）`,
    ssmFp16Fix: (p) => `${p.script} 第 ${p.line} 行：--mamba-ssm-cache-dtype float16`,
    npugraph: (p) => `310P 不支持 npugraph_ex，FULL 图模式下除非 ${p.key} 为 false 否则会运行它，而${p.given ? ' --additional-config 没有设置它' : '未给出 --additional-config'}（${p.tag}）`,
    npugraphFix: (p) => `${p.script} 第 ${p.line} 行：--additional-config '${p.value}'`,
    torchairRemoved: (p) => `torchair_graph_config（${p.at}）会被忽略：TorchAir 图模式已移除，改由 ACLGraph 运行（${p.tag}）`,
    torchairRemovedFix: (p) => `${p.script} 第 ${p.line} 行：从 --additional-config 中删除 "torchair_graph_config"   # 现在的图模式是 ACLGraph`,
    torchairEager: (p) => `torchair_graph_config 已启用（${p.at}），同时使用了 --enforce-eager：vllm-ascend 拒绝启动（"Can't enable graph mode and eager mode at the same time"，${p.tag}）`,
    torchairEagerFix: (p) => `${p.script} 第 ${p.line} 行："torchair_graph_config": {"enabled": false}   # 或去掉 --enforce-eager`,
    torchairModelType: (p) => `model_type ${p.modelType}（权重的 config.json）`,
    torchairModelName: (p) => `${p.model}（依据名称判断；本主机上没有权重，无法得知其 model_type）`,
    torchairUnsupported: (p) => `torchair_graph_config 已对 ${p.what} 启用（${p.at}），而 TorchAir 图模式只运行 model_type ${p.types}：vllm-ascend 启动时抛出 NotImplementedError（${p.tag}）`,
    torchairUnsupportedFix: (p) => `${p.script} 第 ${p.line} 行："torchair_graph_config": {"enabled": false}   # 默认图模式（ACLGraph）即可运行此模型`,
    held: (p) =>
      `${p.rules !== null ? `启动遵守 ${p.rules}（vllm-ascend ${p.release}）` : `knowledge/rules.json 中没有规则适用于此模型和 NPU（vllm-ascend ${p.release}）`}` +
      `${p.notJudged !== null ? `；未判断：${p.notJudged}（见证据）` : ''}` +
      `${p.assumed !== null ? `；此处未找到 vllm-ascend 版本，按最新版本判断，但此启动违反 ${p.assumed}` : ''}`,
    assumedRule: (p) => `${p.rule}（适用于 ${p.range}）`,
    andMore: (p) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
  },
  'model.quantization': {
    title: '量化权重与启动给定的 NPU、数据类型和 TP 匹配',
    why:
      'msModelSlim 的 W8A8 和 W8A8_DYNAMIC 权重在 A2、A3 上按 bfloat16 运行：使用 float16 时，量化矩阵乘会收到它不接受的 float16 scale，' +
      '引擎在首次 profile 运行时失败，报 "Tensor scale not implemented for DT_FLOAT16, should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]"' +
      '（vllm-project/vllm-ascend#7443、#12907：在报告所见的版本上为失败，其他版本为警告）。310P 的 W8A8SC 权重按某个 TP 大小压缩' +
      '（每个 rank 一个 model-rank-N 文件），只能以该 --tensor-parallel-size 部署。依据 quant_model_description.json（model_quant_type）、' +
      '启动参数和 config.json 的 torch_dtype，按已安装的版本判断（knowledge/quantization.json）。必需项。',
    reads: [
      '--launch 启动脚本（不会执行）',
      '权重的 quant_model_description.json（model_quant_type）、config.json（torch_dtype）和文件名',
      'npu-smi info（NPU 型号），否则取 profile 的 npu.family',
      '启动脚本所用 Python 中的 vllm-ascend（dist-info METADATA）',
      'knowledge/quantization.json',
    ],
    fix: '在 A2/A3 上以 --dtype bfloat16 部署 msModelSlim W8A8 权重；以压缩时的 TP 大小部署 W8A8SC 权重。',
    noServer: (p) => `${p.script} 不启动 vLLM 服务：没有可判断的权重`,
    notQuantized: (p) => `${p.model} 没有 msModelSlim 量化描述文件：没有适用的量化规则`,
    noQuantType: (p) => `${p.file} 没有给出 model_quant_type：没有适用的量化规则`,
    noWeights: (p) => `${p.model} 的权重不在本主机上：无法读取其量化方式`,
    noWeightsFix: '在权重所在的节点（提供服务的节点）上运行检查，否则无需处理',
    quantType: (p) => `msModelSlim ${p.type} 权重（${p.file}）`,
    quantTypeByName: (p) => `名为 ${p.model} 的权重（依据名称判断为 W8A8；此处没有 quant_model_description.json）`,
    dtypeFlag: (p) => `--dtype ${p.dtype}（${p.at}）`,
    dtypeConfig: (p) => `config.json 的 torch_dtype ${p.dtype}（未给出 --dtype）`,
    fp16: (p) =>
      `${p.weights}在 ${p.hardware} 上使用 ${p.dtype}：量化矩阵乘不接受 float16 scale，引擎在首次 profile 运行时失败，报 "Tensor scale not implemented for DT_FLOAT16, should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]"（${p.tag}）`,
    fp16Fix: (p) => `${p.script} 第 ${p.line} 行：--dtype bfloat16${p.ssm ? ' --mamba-ssm-cache-dtype bfloat16' : ''}`,
    w8a8scTp: (p) =>
      `${p.weights}按 TP ${p.ranks} 压缩（model-rank-0..${p.ranks - 1} 文件），而服务使用 --tensor-parallel-size ${p.tp}（${p.at}）：W8A8SC 权重与其 TP 大小绑定（${p.tag}）`,
    w8a8scTpFix: (p) => `${p.script} 第 ${p.line} 行：--tensor-parallel-size ${p.ranks}   # 或用要部署的 TP 大小重新压缩 w8a8s 权重（save_sharded_state_310.py --tensor-parallel-size）`,
    fits: (p) => `${p.weights}与此次启动匹配（vllm-ascend ${p.release}）`,
    andMore: (p) => `${p.first}${p.more > 0 ? `（另有 ${p.more} 项）` : ''}`,
  },
};

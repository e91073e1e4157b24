import type { cli as en } from '../en/cli.js';

export const cli: typeof en = {
  'program examples': `
示例：
  qprep check                                  检查本机：问题及其修复命令，其余每类一行
  qprep check -v                               每项检查各占一行
  qprep check -q                               只显示结论行
  qprep check --format json --output r.json    供 Ansible 或编排系统读取的就绪 JSON
  qprep check --only npu,hccn --strict         只检查 NPU 和 HCCN；警告也会阻断
  qprep check --ignore net.proxy               把失败的检查报告为警告（会记录在报告中）
  qprep facts > node1.json                     本节点的 NPU、版本和地址（JSON）
  qprep snapshot -o host.json                  录下 qprep 读取的一切，交给支持人员
  qprep check --snapshot host.json             在任何地方回放
  qprep check --cluster cluster.yaml           作为集群中的一个节点检查（ping 计划、对端）
  qprep check --launch run_p.sh                对照本机检查启动脚本：占位符、网卡、NPU、端口、权重
  qprep aggregate reports/ --cluster c.json    由各节点的报告得出集群结论
  qprep serve --interval 5m                    常驻节点：在 127.0.0.1:9105 提供 /readyz、/report 和 /metrics
  qprep explain cpu.governor                   某项检查看什么、如何修复
  qprep explain model.fit --launch run.sh      每个 NPU 的内存规划，如同 vLLM 启动日志所打印的
  qprep explain glm5.mtp-enforce-eager         knowledge/ 中的一条规则：内容、适用版本、来源
  qprep explain 80E18005                       昇腾故障码的含义、处理级别和处理动作
  qprep list --profiles                        部署 profile：NPU、最低驱动版本、端口、提升的检查
  qprep tune --dry-run                         tune 会改什么，以及旧值
  sudo qprep tune --persist                    应用调优（记入日志），并在重启后保持
  sudo qprep rollback                          按日志恢复所有旧值
  source <(qprep env)                          本机的启动环境变量（LD_PRELOAD、HCCL_IF_IP 等）

退出码：0 就绪，1 未就绪，2 无结论（用法或输入错误）。`,
  'format --format': '输出格式',
  'host --profile': '内置 profile 名称或 YAML/JSON profile 文件（默认："default"；使用 --snapshot 时为快照录制的 profile）',
  'host --root': '在此前缀下读取主机文件（例如容器中的 /host）；命令（npu-smi、hccn_tool）仍在 qprep 自身的环境中运行',
  'host --snapshot': '从快照文件作答，而不是读取本机',
  'host --timeout': '每次探测的超时，须带单位：10s、500ms、2m',
  'cluster --cluster': '部署的节点：YAML/JSON 集群文件，或 qprep facts 文档组成的 JSON 数组',
  'cluster --node': '本机在集群文件中的节点名（当地址和主机名都无法确定时）',
  'cluster --hccn-concurrency': '本机同时运行的 hccn_tool 调用数（默认 1：并发运行时该工具会回答 "busy"）',
  'launch --launch': '检查此启动脚本（运行 vllm serve 的 bash 脚本；"-" 从标准输入读取）：只读取，从不执行；可重复给出：以参数（$1..$9）调用它的其他脚本提供这些参数的值',
  'launch --no-io-probe': '不读取权重文件来测量其存储速度（model.load-time 随之跳过）；该探测每个文件系统最多读取一次，最多 2 GiB、最多 3 秒',
  'selection --only': '只运行这些检查：id、id 前缀（npu、hccn）或类别；逗号分隔，可重复',
  'selection --skip': '不运行这些检查；语法同 --only',
  'selection --jobs': '同时运行的检查数',
  'selection --depth': '检查深度：quick（只读文件和 npu-smi 表，不逐设备调用工具）、standard（预检对每个设备和对端所读的内容）、deep（standard 加上每个网口的链路诊断：链路历史、光模块、两次读取的错误计数）；qprep list 列出每项检查的深度和开销（默认 standard；回放快照时为其录制时的深度）',
  'lang --lang': '给人读的文字所用的语言：en 或 zh（默认依次读取 QPREP_LANG、LC_ALL、LC_MESSAGES、LANG；zh* 为中文）',
  program: '在昇腾 NPU 主机用 vllm-ascend 部署大模型之前做预检和调优。',
  'program --version': '显示版本',
  'program --color': '人读输出的颜色：auto（终端上）、always、never；遵循 FORCE_COLOR 和 NO_COLOR',
  'program --no-color': '人读输出不用颜色，同 --color=never',
  check: '运行检查，打印报告；退出码 0 就绪 / 1 未就绪 / 2 无结论',
  'check --output': '把报告写入此文件（原子写入），而不是标准输出',
  'check --ignore': '把这些失败的检查报告为警告（记录在报告中）；"all" 表示所有检查',
  'check --strict': '建议项的警告和错误也会使节点未就绪',
  'check --verbose': '人读报告：每项检查，包括通过的',
  'check --quiet': '人读报告：只显示结论行',
  serve: '常驻节点：启动时及每隔 --interval 运行检查，通过 HTTP 提供 /healthz、/readyz、/report 和 /metrics；只读，从不调优',
  'serve --listen': '监听地址（只有明确给出时才监听非回环地址）',
  'serve --interval': '两次运行的间隔，例如 30s、5m、1h（每次运行有 ±10 % 的随机偏移）',
  'serve --deep-every': '启动时以 deep 深度运行，之后每隔此时间最多运行一次（如 1h）；其间的运行保持 --depth，并带上 deep 检查的最近结果，注明其观测时间',
  'serve --budget': '一次运行的最长时间，超时则终止其探测并以无结论结束（默认为 --interval 的 80 %）',
  'serve --allow-trigger': '允许 POST /run 立即开始一次运行',
  'serve --allow-host':
    '也应答 Host 头为此值的请求（主机名或地址；可重复或用逗号分隔；* 表示任意 Host）。默认只应答 localhost、回环地址和 --listen 的地址（监听所有地址时为任意地址）：网页能控制的名字以 421 拒绝（DNS 重绑定）',
  'serve --max-connections': '同时打开的最大连接数；超出的连接一到即被关闭，使空闲客户端无法占用运行所需的文件描述符',
  'serve --nfd-features': '每次运行后，把结论作为节点标签写入这个 node-feature-discovery 特征文件（原子写入；例如 /etc/kubernetes/node-feature-discovery/features.d/qprep）',
  'serve --annotate': '每当结论的注解变化时，把它们 patch 到这个 Kubernetes 节点上（集群内：使用 Pod 的 ServiceAccount 令牌和 CA）',
  'serve --ignore': '把这些失败的检查报告为警告（记录在报告中）；"all" 表示所有检查',
  'serve --strict': '建议项的警告和错误也会使节点未就绪',
  snapshot: '把检查读取的每个命令输出和文件录入一个 JSON 文件，供 check --snapshot 回放',
  'snapshot --output': '要写入的快照文件（原子写入）',
  facts: '本节点的身份与清单（JSON）：主机名、地址、NPU、版本、服务器型号、CPU、网卡，供 Ansible 和集群文件使用',
  'facts --output': '把文档写入此文件（原子写入），而不是标准输出',
  'facts --include-serial': '在清单中显示服务器序列号（DMI product_serial）',
  'facts --include-mac': '在清单中显示网卡的 MAC 地址',
  tune: '按 profile 的要求调优，记入日志并验证；退出码 0 已应用或无需修改 / 1 失败并已回滚 / 2 无结论',
  'tune --dry-run': '显示计划和旧值；不写任何东西',
  'tune --persist': '同时让设置在重启后保持（/etc/sysctl.d/90-qprep.conf、/etc/tmpfiles.d/qprep.conf）',
  'tune --force': '即使在容器内也调优（这些设置属于宿主机操作系统）',
  'tune --only': '只调优这些检查：id、前缀或类别；逗号分隔，可重复',
  'tune --skip': '不调优这些检查；语法同 --only',
  rollback: '按调优日志恢复旧值（tune 中断后也可以），然后注销该日志',
  'rollback --dry-run': '显示将恢复什么；不写任何东西',
  'rollback --force': '恢复在 tune 之后又被修改的值，接受已消失的文件，在容器内运行',
  'rollback --root': '主机文件位于此前缀下（例如容器中的 /host）',
  'rollback --snapshot': '与 --dry-run 一起使用：rollback 在快照所录主机上会做什么',
  'rollback --timeout': '每次探测的超时，须带单位：10s、500ms、2m',
  env: '打印启动脚本在本机需要的 export 行：LD_PRELOAD、HCCL_IF_IP、*_SOCKET_IFNAME、profile 中的变量',
  'env --format': '输出格式',
  'env --ip': '本节点用于 HCCL_IF_IP 的地址（默认：默认路由接口的地址）',
  'env --nic': '*_SOCKET_IFNAME 变量使用的接口（默认：承载 --ip 的接口，或默认路由接口）',
  'env --cluster': '从集群文件中取本节点的地址（HCCL_IF_IP）和接口名；--ip 和 --nic 优先',
  'env --node': '本机在集群文件中的节点名（当地址和主机名都无法确定时）',
  aggregate: '由多个节点的报告（qprep check --format json）得出集群结论：各节点是否就绪、节点间的差异、冲突的设备 IP、缺失和过期的报告；退出码 0 就绪 / 1 未就绪 / 2 输入不可读',
  'aggregate <reports...>': '报告文件、含 *.json 报告的目录，或 - 表示标准输入（一个 JSON 数组，或依次排列的多个文档）',
  'aggregate --output': '把结论写入此文件（原子写入），而不是标准输出',
  'aggregate --cluster': '应当提交报告的节点：集群文件，或 qprep facts 文档组成的 JSON 数组',
  'aggregate --profile': '部署的 profile：报告数少于其 deployment.nodes 时集群未就绪（不给出时以报告中的 profile 为准）',
  'aggregate --max-age': '开始时间早于此时长（例如 30m、2h、1d）的报告会使集群未就绪',
  'aggregate --strict': '警告（内核、sysctl 或 profile 的差异，不在集群文件中的节点）也会使集群未就绪',
  list: '检查目录：id、级别、类别、标题；加 --profiles 时列出部署 profile',
  'list --profiles': '改为列出内置 profile：系列、NPU、最低驱动版本、节点、端口、shm、磁盘、调优、各自提升的检查',
  'list --profile': '按此 profile 设定的级别显示；与 --profiles 一起使用时只描述此 profile（文件会在其继承的内置 profile 上解析）',
  explain: '某项检查的用途、读取什么、如何修复；knowledge/ 中的规则：其陈述、适用版本和来源；昇腾故障码：其含义、处理级别和处理动作；model.fit 加 --launch：该脚本在本机的内存规划',
  'explain <id>': '检查 id，例如 cpu.governor；knowledge/rules.json、knowledge/quantization.json 中的规则 id，例如 glm5.mtp-enforce-eager；或 npu-smi 打印的昇腾故障码，例如 80E18005（也可写作 0x80E18005）',
  version: '显示版本（同 --version）',
  schema: '打印某种文档的 JSON Schema（由代码生成）',
  'schema [document]': 'report、profile、snapshot、cluster、facts、tune、rollback、env 或 aggregate',
};

/** The command line: command, option and argument descriptions, the help's examples; keyed by "command --option". */
export const cli = {
  'program examples':
    `
Examples:
  qprep check                                  check this host: the problems with their fixes, one line for the rest
  qprep check -v                               every check, one line each
  qprep check -q                               the verdict line alone
  qprep check --format json --output r.json    the readiness JSON for Ansible or an orchestrator
  qprep check --only npu,hccn --strict         NPU and HCCN checks only; warnings block too
  qprep check --ignore net.proxy               report a failing check as a warning (recorded)
  qprep facts > node1.json                     this node's NPUs, versions and addresses as JSON
  qprep snapshot -o host.json                  record everything qprep reads, for support
  qprep check --snapshot host.json             replay it anywhere
  qprep check --cluster cluster.yaml           this node as one of a cluster (ping plans, peers)
  qprep check --launch run_p.sh                the launch script against this host: placeholders, NIC, NPUs, ports, weights
  qprep aggregate reports/ --cluster c.json    the cluster verdict from every node's report
  qprep serve --interval 5m                    stay on the node: /readyz, /report and /metrics on 127.0.0.1:9105
  qprep explain cpu.governor                   what a check looks at and how to fix it
  qprep explain model.fit --launch run.sh      the memory plan per NPU, as vLLM's start-up log would print it
  qprep explain glm5.mtp-enforce-eager         a rule of knowledge/: what it says, its releases, its sources
  qprep explain 80E18005                       an Ascend fault code: its meaning, handling level and action
  qprep list --profiles                        the deployment profiles: NPUs, minimum driver, ports, what they promote
  qprep tune --dry-run                         what tune would change, with the old values
  sudo qprep tune --persist                    apply the tuning, journaled, and keep it across reboots
  sudo qprep rollback                          put back every old value from the journal
  source <(qprep env)                          the launch environment of this host (LD_PRELOAD, HCCL_IF_IP, ...)

Exit codes: 0 ready, 1 not ready, 2 no verdict (bad usage or input).`,
  'format --format':
    'output format',
  'host --profile':
    'built-in profile name or a YAML/JSON profile file (default: "default", or with --snapshot the profile it recorded)',
  'host --root':
    "read the host's files under this prefix (e.g. /host in a container); commands (npu-smi, hccn_tool) still run from qprep's own environment",
  'host --snapshot':
    'answer from a snapshot file instead of the live host',
  'host --timeout':
    'timeout of each probe, with its unit: 10s, 500ms, 2m',
  'cluster --cluster':
    'the nodes of the deployment: a YAML/JSON cluster file or a JSON array of qprep facts documents',
  'cluster --node':
    "this host's node in the cluster file, when neither its addresses nor its hostname tell",
  'cluster --hccn-concurrency':
    'hccn_tool calls at once on this host (default 1: the tool answers "busy" when run concurrently)',
  'launch --launch':
    'judge this launch script (the bash that runs vllm serve; "-" reads it from stdin): read, never executed; repeatable: a further script that runs it with its arguments ($1..$9) gives their values',
  'launch --no-io-probe':
    'do not read the weights to time their storage (model.load-time then skips); the probe reads at most 2 GiB for at most 3 s, once per filesystem',
  'selection --only':
    'run only these checks: ids, id prefixes (npu, hccn) or categories; comma-separated, repeatable',
  'selection --skip':
    'do not run these checks; same syntax as --only',
  'selection --jobs':
    'checks run at once',
  'selection --depth':
    'how deep to look: quick (files and the npu-smi table: no per-device call), standard (what a preflight reads of every device and peer), deep (standard and the link diagnostics of every port: link history, optical module, error counters read twice); qprep list shows each check\'s depth and cost (default: standard; a replay: the depth its snapshot was recorded at)',
  'lang --lang':
    'language of the text a person reads: en or zh (default: QPREP_LANG, then LC_ALL, LC_MESSAGES, LANG; zh* is Chinese)',
  'program':
    'Preflight and tuning for Huawei Ascend NPU hosts about to serve LLMs with vllm-ascend.',
  'program --version':
    'print the version',
  'program --color':
    'colors in human output: auto (on a terminal), always, never; FORCE_COLOR and NO_COLOR are honoured',
  'program --no-color':
    'no colors in human output, as --color=never',
  'check':
    'run the checks, print the report, exit 0 ready / 1 not ready / 2 no verdict',
  'check --output':
    'write the report to this file (atomically) instead of stdout',
  'check --ignore':
    'report these failing checks as warnings (recorded in the report); "all" for every check',
  'check --strict':
    'warnings and errors of recommended checks make the node not ready too',
  'check --verbose':
    'human report: every check, passes included',
  'check --quiet':
    'human report: the verdict line alone',
  'serve':
    'stay on the node: run the checks at start and every --interval, serve /healthz, /readyz, /report and /metrics over HTTP; read-only, never tunes',
  'serve --listen':
    'where to listen (a non-loopback address only when given)',
  'serve --interval':
    'time between runs, e.g. 30s, 5m, 1h (each run is jittered by ±10 %)',
  'serve --budget':
    'longest a run may take before its probes are killed and it ends without a verdict (default 80 % of --interval)',
  'serve --deep-every':
    'run at depth deep at start and then at most once per this time (e.g. 1h); the runs between keep their --depth and carry the deep checks\' last results, marked with when they were observed',
  'serve --allow-trigger':
    'allow POST /run to start a run at once',
  'serve --allow-host':
    'also answer requests whose Host header names this (a host name or an address; repeat or comma-separate; * for any Host). By default only localhost, loopback addresses and the --listen address (any address when listening on all of them): a name a web page controls is refused with 421 (DNS rebinding)',
  'serve --max-connections':
    'most connections open at once; one more is closed as it comes, so that idle clients cannot take the file descriptors a run needs',
  'serve --nfd-features':
    "after every run, write the verdict as node labels into this node-feature-discovery feature file (atomically; e.g. /etc/kubernetes/node-feature-discovery/features.d/qprep)",
  'serve --annotate':
    "after every run that changes them, patch the verdict's annotations onto this Kubernetes node (in-cluster: the pod's ServiceAccount token and CA)",
  'serve --ignore':
    'report these failing checks as warnings (recorded in the report); "all" for every check',
  'serve --strict':
    'warnings and errors of recommended checks make the node not ready too',
  'snapshot':
    'record every command output and file the checks read into one JSON file, for replay with check --snapshot',
  'snapshot --output':
    'snapshot file to write (atomically)',
  'facts':
    "this node's identity and inventory as JSON (hostname, addresses, NPUs, versions, server model, CPUs, NICs), for Ansible and cluster files",
  'facts --output':
    'write the document to this file (atomically) instead of stdout',
  'facts --include-serial':
    "show the server's serial number (DMI product_serial) in the inventory",
  'facts --include-mac':
    "show the NICs' MAC addresses in the inventory",
  'tune':
    'apply the tuning the profile asks for, journaled and verified; exit 0 applied or nothing to change / 1 failed and rolled back / 2 no verdict',
  'tune --dry-run':
    'show the plan and the old values; write nothing',
  'tune --persist':
    'also make the settings survive reboot (/etc/sysctl.d/90-qprep.conf, /etc/tmpfiles.d/qprep.conf)',
  'tune --force':
    'tune even inside a container (the settings belong to the host OS)',
  'tune --only':
    'tune only these checks: ids, prefixes or categories; comma-separated, repeatable',
  'tune --skip':
    'do not tune these checks; same syntax as --only',
  'rollback':
    'restore the old values from the tune journal (also after an interrupted tune), then retire the journal',
  'rollback --dry-run':
    'show what would be restored; write nothing',
  'rollback --force':
    'restore values changed since tune wrote them, accept vanished files, run inside a container',
  'rollback --root':
    "the host's files under this prefix (e.g. /host in a container)",
  'rollback --snapshot':
    'with --dry-run: what rollback would do on the host of a snapshot',
  'rollback --timeout':
    'timeout of each probe, with its unit: 10s, 500ms, 2m',
  'env':
    'print the export lines a launch script needs on this host: LD_PRELOAD, HCCL_IF_IP, *_SOCKET_IFNAME, the profile\'s variables',
  'env --format':
    'output format',
  'env --ip':
    "this node's address for HCCL_IF_IP (default: the address of the default-route interface)",
  'env --nic':
    'the interface for the *_SOCKET_IFNAME variables (default: the one carrying --ip, or the default route)',
  'env --cluster':
    "take this node's address (HCCL_IF_IP) and ifname from the cluster file; --ip and --nic override it",
  'env --node':
    "this host's node in the cluster file, when neither its addresses nor its hostname tell",
  'aggregate':
    'the cluster verdict from many nodes\' reports (qprep check --format json): readiness per node, what differs across nodes, colliding device IPs, missing and stale reports; exit 0 ready / 1 not ready / 2 unreadable input',
  'aggregate <reports...>':
    'report files, directories of *.json reports, or - for standard input (a JSON array, or documents one after another)',
  'aggregate --output':
    'write the verdict to this file (atomically) instead of stdout',
  'aggregate --cluster':
    'the nodes that should have reported: a cluster file or a JSON array of qprep facts documents',
  'aggregate --profile':
    "the deployment's profile: fewer reports than its deployment.nodes make the cluster not ready (without it, the reports' profiles say)",
  'aggregate --max-age':
    'reports that started longer ago than this (e.g. 30m, 2h, 1d) make the cluster not ready',
  'aggregate --strict':
    'warnings (kernel, sysctl or profile differences, nodes not in the cluster file) make the cluster not ready too',
  'list':
    'the check catalogue: id, level, category, title; with --profiles, the deployment profiles',
  'list --profiles':
    'list the built-in profiles instead: family, NPUs, minimum driver, nodes, ports, shm, disk, tuning, what each promotes',
  'list --profile':
    'levels as this profile sets them; with --profiles, describe only this profile (a file resolved over the built-in it extends)',
  'explain':
    "one check's purpose, what it reads, and how to fix it; a rule of knowledge/: its statement, releases and sources; an Ascend fault code: its meaning, handling level and action; model.fit with --launch: the memory plan of the script on this host",
  'explain <id>':
    'check id, e.g. cpu.governor; a rule id of knowledge/rules.json or knowledge/quantization.json, e.g. glm5.mtp-enforce-eager; or an Ascend fault code as npu-smi prints it, e.g. 80E18005 (0x80E18005 too)',
  'version':
    'print the version (as --version does)',
  'schema':
    'print the JSON Schema of a document, generated from the code',
  'schema [document]':
    'report, profile, snapshot, cluster, facts, tune, rollback, env or aggregate',
};

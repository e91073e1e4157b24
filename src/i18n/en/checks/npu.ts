import { plural } from '../../../util/text.js';
import type { HbmEccRuleId } from '../../../knowledge/hbm-ecc.js';
import type { CheckEntries } from '../../types.js';

/** The checks npu.*: the NPUs, their driver, firmware and CANN. One entry per check id. */
export const npu = {
  'npu.cann': {
    title: 'CANN toolkit fits the driver',
    why:
      'Each vllm-ascend release pins one CANN version, and each CANN runs on the drivers it was released against: the ' +
      "driver's version.info lists the CANN inner versions it accepts and the CANN install record the drivers it supports. " +
      'A CANN image newer than the host driver fails late, e.g. DeepSeek-V3.2 with CANN 8.3.RC2 on driver 24.1 hangs until ' +
      '"watchdog timeout". Known-bad pairs that the files do not reveal are kept in a table of reported failures. A profile ' +
      'can name the oldest CANN its deployment runs on (npu.minCann). Required. ' +
      'A bare host without CANN is skipped: the toolkit ships in the vllm-ascend image.',
    reads: [
      'ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH',
      '<toolkit>/<arch>-linux/ascend_toolkit_install.info (ascend-toolkit/latest, /usr/local/Ascend/cann, cann-<version>, nnae), or a component version.info',
      '<driver>/version.info',
    ],
    fix: 'Use the vllm-ascend image (or CANN release) made for the installed driver, or upgrade the driver and firmware to the HDK the CANN release notes name.',
    /** `notes` are what the environment variables said, as the probe words them */
    noneOnHost: (p: { notes: string | null }) =>
      `no CANN toolkit on this host${p.notes !== null ? ` (${p.notes})` : ''}; it ships in the vllm-ascend image: run qprep inside the container to check it`,
    checkInContainer: 'check it where vLLM runs: docker exec <container> qprep check --only npu.cann (or install CANN on this host if vLLM runs here)',
    noneInContainer: (p: { notes: string | null }) => `no CANN toolkit in this container${p.notes !== null ? ` (${p.notes})` : ''}`,
    useImage: 'use a vllm-ascend image (quay.io/ascend/vllm-ascend), or install CANN and source /usr/local/Ascend/ascend-toolkit/set_env.sh',
    wrongArch: (p: { version: string; home: string; arch: string; hostArch: string }) => `CANN ${p.version} at ${p.home} is built for ${p.arch}, this host is ${p.hostArch}`,
    installArch: (p: { arch: string }) => `install the ${p.arch} CANN package (or use the image for this architecture)`,
    tooOld: (p: { version: string; home: string; minimum: string; profile: string }) =>
      `CANN ${p.version} at ${p.home} is older than ${p.minimum}, the minimum of profile ${p.profile}`,
    newerImage: (p: { minimum: string }) =>
      `use a vllm-ascend image built on CANN ${p.minimum} or later (the release's installation page names its CANN), or install that CANN and source its set_env.sh`,
    noDriver: (p: { version: string; home: string }) =>
      `CANN ${p.version} at ${p.home}; no driver version to check it against (driver version.info unreadable, npu-smi unavailable)`,
    readDriver: 'make the driver version readable (see npu.driver-version), then re-run',
    pair: (p: { version: string; inner: string | null; driver: string; driverInner: string | null }) =>
      `CANN ${p.version}${p.inner ? ` (${p.inner})` : ''} with driver ${p.driver}${p.driverInner ? ` (${p.driverInner})` : ''}`,
    driverAccepts: (p: { list: string }) => `the driver accepts CANN ${p.list}`,
    cannSupports: (p: { list: string }) => `CANN supports drivers ${p.list}`,
    unsupported: (p: { pair: string; lists: string }) => `${p.pair} is not a supported pair: ${p.lists}`,
    imageForDriver: 'use the vllm-ascend image made for this driver, or upgrade the driver and firmware to the HDK release the CANN release notes name',
    /** `symptom` and `fix` come from the table of reported failures (src/data), which quotes its sources in English */
    knownToFail: (p: { pair: string; symptom: string }) => `${p.pair} is known to fail: ${p.symptom}`,
    reportedFailure: (p: { pair: string; symptom: string }) => `${p.pair} has a reported failure: ${p.symptom}`,
    declaredBy: (p: { by: readonly string[] }) => `declared compatible by the ${p.by.join(' and ')}`,
    undeclared: 'neither file declares the other; no known failure',
    fits: (p: { pair: string; how: string; notes: string | null }) => `${p.pair}: ${p.how}${p.notes !== null ? ` (note: ${p.notes})` : ''}`,
  },
  'npu.driver-version': {
    title: 'Driver version (version.info and npu-smi agree, at least the profile minimum)',
    why:
      'CANN checks the driver it runs on through driver/version.info, while npu-smi reports the driver actually loaded. ' +
      "When the two differ, the version.info is not the host's (a copy baked into the image, or a half-finished upgrade) " +
      "or npu-smi belongs to another driver, and CANN's compatibility decision rests on a wrong version: the \"driver version " +
      'inconsistency" reports end that way. A profile can name the oldest driver its deployment runs on (npu.minDriver): ' +
      'each vllm-ascend image carries one CANN, and each CANN release names the HDK it needs. Required.',
    reads: ['<driver>/version.info (driver dir from /etc/ascend_install.info, /usr/local/Ascend/driver by default)', 'npu-smi info (Version:)'],
    fix: "Mount the host's driver/version.info into the container, or finish the driver upgrade (reinstall the package, reboot); below the profile minimum, upgrade the driver and firmware (Ascend HDK).",
    tooOld: (p: { version: string; path: string; minimum: string; profile: string }) =>
      `driver ${p.version} (${p.path}) is older than ${p.minimum}, the minimum of profile ${p.profile}`,
    upgrade: (p: { minimum: string; version: string }) =>
      `upgrade the NPU driver and firmware (Ascend HDK) to ${p.minimum} or later on the host: Ascend-hdk-*-npu-firmware_*.run --full, then Ascend-hdk-*-npu-driver_*.run --full, reboot; or use the image made for driver ${p.version}`,
    addMount: (p: { flag: string }) => `add ${p.flag} to docker run`,
    reinstall: 'reinstall the NPU driver package (Ascend-hdk-*-npu-driver_*.run --full)',
    cannotRead: (p: { reason: string }) => `cannot read the driver version: ${p.reason}`,
    noVersion: (p: { reason: string }) => `no driver version: ${p.reason}`,
    namesNone: (p: { path: string }) => `${p.path} names no driver version (no Version= or package_version= line)`,
    damaged: 'reinstall the NPU driver package; the file is damaged',
    unconfirmed: (p: { version: string; path: string; problem: string | null }) =>
      `driver ${p.version} per ${p.path}; npu-smi could not confirm it${p.problem === null ? ' (its table names no version)' : `: ${p.problem}`}`,
    makeNpuSmiWork: 'make npu-smi work (see npu.smi), then re-run',
    disagree: (p: { version: string; path: string; loaded: string }) => `driver ${p.version} per ${p.path}, but npu-smi reports driver ${p.loaded}`,
    notHostsFile: (p: { path: string; flag: string }) => `the container's ${p.path} is not the host's: add ${p.flag} to docker run (and mount npu-smi from the host too)`,
    unfinishedUpgrade: 'a driver upgrade is unfinished or npu-smi belongs to another install: reinstall the driver package and reboot',
    agree: (p: { version: string; inner: string | null; minimum: string | null; profile: string }) =>
      `driver ${p.version}${p.inner ? ` (${p.inner})` : ''}; version.info and npu-smi agree${p.minimum !== null ? `, at least ${p.minimum} (profile ${p.profile})` : ''}`,
  },
  'npu.firmware-version': {
    title: 'Firmware version fits the driver',
    why:
      'Driver and firmware are released in pairs: the driver declares the firmware range it supports ' +
      '(compatible_version_fw), the firmware the drivers it supports (compatible_version_drv), and npu-smi -t board ' +
      "prints the driver's own verdict (Compatibility OK/NOK). A mismatch usually follows a driver upgrade without the " +
      'firmware. Recommended rather than required: the driver installer refuses most bad pairs itself, and a pair that slips ' +
      'through shows up in npu.health; this check names the cause.',
    reads: ['npu-smi info -t board -i <card>', '<firmware>/version.info', '<driver>/version.info'],
    fix: 'Install the firmware package that belongs to the installed driver (same HDK release), then reboot.',
    notVisible:
      'the firmware version is not visible in this container (npu-smi -t board named none, and the guides do not mount /usr/local/Ascend/firmware); run qprep on the host to check it',
    onHost: 'on the host: qprep check --only npu.firmware-version',
    noFirmware: (p: { file: string | null; board: string | null }) =>
      `no firmware version: ${p.file ?? 'version.info names none'}; npu-smi -t board: ${p.board ?? 'named none'}`,
    installFirmware: "install the firmware package of the driver's HDK release (Ascend-hdk-*-npu-firmware_*.run --full), then reboot",
    notCompatible: (p: { firmware: string }) => `the driver reports firmware ${p.firmware} as not compatible (npu-smi info -t board: Compatibility NOK)`,
    installFirmwareOf: (p: { driver: string | null }) => `install the firmware package of driver ${p.driver ?? 'the installed driver'}'s HDK release, then reboot`,
    driverTakes: (p: { driver: string | null; ranges: string }) => `driver ${p.driver} takes firmware ${p.ranges}`,
    firmwareTakes: (p: { firmware: string; ranges: string }) => `firmware ${p.firmware} takes drivers ${p.ranges}`,
    doesNotFit: (p: { firmware: string; driver: string; ranges: string }) => `firmware ${p.firmware} does not fit driver ${p.driver}: ${p.ranges}`,
    /** `by`: the files that declare the range, "driver" and/or "firmware" */
    withinRange: (p: { by: readonly string[] }) => `within the range the ${p.by.join(' and ')} declare${p.by.length === 1 ? 's' : ''}`,
    noRange: 'neither file declares a range',
    fits: (p: { firmware: string; driver: string; how: string; compatibility: string | null }) =>
      `firmware ${p.firmware} with driver ${p.driver}: ${p.how}${p.compatibility ? `; npu-smi Compatibility ${p.compatibility}` : ''}`,
  },
  'npu.driver-files': {
    title: 'Driver files (and their mounts in a container)',
    why:
      "npu-smi, CANN and torch_npu load the driver's user-space libraries (driver/lib64, /usr/local/dcmi) and read " +
      'driver/version.info and /etc/ascend_install.info. In a container each must be bind-mounted from the host as the ' +
      'deployment guide does: missing libraries fail with "libascend_hal.so: cannot open shared object file", and a copy baked ' +
      'into the image goes stale on the next driver upgrade, so a file that exists but is not a mount fails too. Required.',
    reads: [
      '/usr/local/Ascend/driver/lib64, /usr/local/Ascend/driver/version.info, /etc/ascend_install.info, /usr/local/dcmi, npu-smi, hccn_tool',
      '200I Pro: the libraries, configuration files and daemons of its guide',
      '/proc/self/mountinfo (in a container)',
    ],
    fix: 'Add the missing -v flags of the deployment guide to docker run; on a host, reinstall the NPU driver package.',
    missing: 'missing',
    dockerMadeDirectory: 'a directory, not a file (the host has no such file, so docker created an empty directory)',
    notFile: (p: { kind: string }) => `a ${p.kind}, not a file`,
    notDirectory: (p: { kind: string }) => `a ${p.kind}, not a directory`,
    emptyDirectory: 'an empty directory',
    copyInImage: (p: { fsType: string }) => `present but not mounted from the host (a copy in the image's ${p.fsType} root)`,
    cannotTellMounts: (p: { reason: string }) => `cannot tell whether the driver files are mounted from the host: ${p.reason}`,
    readMountinfo: 'make /proc/self/mountinfo readable in the container (it is by default; check the seccomp/AppArmor profile) and re-run',
    path: (p: { path: string; problem: string }) => `${p.path} ${p.problem}`,
    notUsable: (p: { count: number; total: number; inContainer: boolean; paths: string }) =>
      `${p.count} of ${p.total} ${p.inContainer ? 'driver paths the guide mounts' : 'driver paths'} ${p.count === 1 ? 'is' : 'are'} not usable: ${p.paths}`,
    addFlags: (p: { flags: string }) => `add ${p.flags} to docker run`,
    reinstall: 'reinstall the NPU driver package (Ascend-hdk-*-npu-driver_*.run --full), which creates these files',
    mounted: (p: { count: number; paths: string }) => `${p.count} driver paths mounted from the host (${p.paths})`,
    present: (p: { count: number; root: string; paths: string }) => `${p.count} driver paths present under ${p.root} and /usr/local (${p.paths})`,
  },
  'npu.tools': {
    title: 'npu-smi and hccn_tool resolvable',
    why:
      "Every NPU check, vllm-ascend's own health probe and CPU binding run npu-smi, and Mooncake/HIXL call hccn_tool for " +
      'the device IPs of A2 and A3 NPUs. Neither is on PATH in a container unless it is mounted ("bash: /usr/local/bin/npu-smi: ' +
      'No such file or directory"), and npu-smi sits in /usr/local/sbin on some hosts. Required: without them the node cannot ' +
      'be assessed, and the 310P family, which has no NPU network, is not asked for hccn_tool.',
    reads: ['PATH, /usr/local/sbin, /usr/local/bin (npu-smi)', 'PATH, /usr/local/Ascend/driver/tools (hccn_tool)'],
    fix: "In a container add the guide's -v flags for npu-smi and hccn_tool; on a host install the NPU driver package, which ships both.",
    notIn: (p: { tool: string; dirs: string }) => `${p.tool} (not on PATH, not in ${p.dirs})`,
    notFound: (p: { tools: string }) => `not found: ${p.tools}`,
    addFlags: (p: { flags: string }) => `add ${p.flags} to docker run`,
    installDriver: 'install the NPU driver package (it ships npu-smi and hccn_tool), or add their directories to PATH',
    inRootTree: (p: { root: string; paths: string }) => `; the host under ${p.root} has ${p.paths}, but commands run from qprep's own environment`,
    foundAt: (p: { tool: string; path: string }) => `${p.tool} at ${p.path}`,
    hccnNotNeeded: (p: { family: string; pro: boolean }) => `no hccn_tool (not needed for family ${p.family}${p.pro ? ', 200I Pro' : ''})`,
  },
  'npu.devices': {
    title: 'NPU device nodes',
    why:
      'The runtime opens /dev/davinciN for each NPU and the control devices (/dev/davinci_manager, /dev/devmm_svm, ' +
      '/dev/hisi_hdc; on the 200I Pro /dev/ascend_manager and /dev/user_config instead). In a container each one must be ' +
      'passed with --device, and a plain file created at that path (a mistyped -v) is not a device. A missing node is ' +
      'found late, as "rtGetDeviceCount ... no valid device" or "open device 0 failed": required.',
    reads: ['/dev (listing)', '/dev/davinci*, /dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc, /dev/ascend_manager, /dev/user_config (stat)', 'npu-smi info'],
    fix: 'In a container add the missing --device flags; on a host reload the NPU driver (the driver creates the nodes).',
    cannotList: (p: { problem: string }) => `cannot list the device nodes: ${p.problem}`,
    mountDev: 'mount /dev (or run qprep where /dev is readable) and re-run',
    missing: 'missing',
    notCharDevice: (p: { kind: string }) => `a ${p.kind}, not a character device`,
    missingListed: 'missing (npu-smi lists this device)',
    missingForProfile: (p: { minCount: number }) => `missing (the profile needs ${p.minCount} NPUs)`,
    missingAll: 'missing (no NPU device node at all)',
    node: (p: { path: string; problem: string }) => `${p.path} ${p.problem}`,
    notUsable: (p: { count: number; nodes: string }) => `${p.count === 1 ? '1 device node is' : `${p.count} device nodes are`} not usable: ${p.nodes}`,
    startWith: (p: { flags: string }) => `start the container with ${p.flags}`,
    reloadDriver: 'the driver did not create them: check that the NPUs are visible (lspci | grep -i d80) and reload or reinstall the NPU driver',
    usable: (p: { count: number; ranges: string; controls: string }) =>
      `${p.count} NPU device node${p.count === 1 ? '' : 's'} (/dev/davinci${p.ranges}) and ${p.controls} are character devices`,
  },
  'npu.smi': {
    title: 'npu-smi runs and its table parses',
    why:
      "npu-smi is the driver's own view of the NPUs. When it cannot start, vllm-ascend cannot either, and the reason is in " +
      'its output: "dcmi module initialize failed. ret is -8005" (the NPUs are held by another container), -8020 (the ' +
      'device is used), a missing shared library (driver lib64 not mounted), or a hang (a wedged driver). qprep translates ' +
      'each into the cause and the fix. A table that begins mid-table, stops after a row without its closing border, or has rows cut by ' +
      'hand ("...") is read for what it holds and warns: the NPUs it lists are a lower bound. Required: the other NPU checks read this table.',
    reads: ['npu-smi info'],
    fix: 'Follow the cause printed: free the NPUs, add the missing mount, or repair the driver; then run npu-smi info by hand.',
    truncated: (p: { deviceRows: boolean; devices: number; family: string; processes: number }) =>
      `npu-smi's output begins mid-table (${p.deviceRows ? 'device rows' : 'a process table'} without the banner and header): it is read for what it holds, ` +
      `${plural(p.devices, 'NPU device')}${p.deviceRows ? ` (family ${p.family})` : ''} and ${plural(p.processes, 'process', 'processes')}, and may be cut`,
    cut: (p: { line: number | null; devices: number; family: string; processes: number }) =>
      (p.line !== null
        ? `npu-smi's table stops after line ${p.line}, a row without its closing border: `
        : "npu-smi's table has rows cut by hand (\"...\"): ") +
      `it is read for what it holds, ${plural(p.devices, 'NPU device')} (family ${p.family}) and ${plural(p.processes, 'process', 'processes')}, and the NPUs after the cut are missing`,
    recordWhole: 'record the whole output of npu-smi info (qprep snapshot on the host), not an excerpt',
    noDevice: 'npu-smi printed its table but no NPU in it',
    noDeviceFix: 'check that the NPUs are visible (lspci | grep -i d80) and that the driver is loaded; in a container pass them with --device /dev/davinciN',
    summary: (p: { tool: string; driver: string; devices: number; ids: string; family: string }) =>
      `npu-smi ${p.tool} (driver ${p.driver}): ${p.devices} NPU device${p.devices === 1 ? '' : 's'} ${p.ids}, family ${p.family}`,
    warns: (p: { summary: string; warning: string }) => `${p.summary}; npu-smi warns: ${p.warning}`,
    mountInstallInfo: (p: { path: string }) => `add -v ${p.path}:${p.path} to docker run; if the host's npu-smi warns too, reinstall the driver there`,
    reinstallDriver: (p: { path: string }) => `reinstall the NPU driver package so that ${p.path} records Driver_Install_Status=complete (./Ascend-hdk-*-npu-driver_*.run --full)`,
  },
  'npu.count': {
    title: 'NPU count and family match the deployment',
    why:
      'A tensor-parallel size of 16 needs 16 visible dies (one Atlas 800 A3, or two A2 nodes of 8), and a card or die ' +
      'missing after a fault, or a container started with fewer --device flags, fails the launch after the weights load. ' +
      'ASCEND_RT_VISIBLE_DEVICES counts the devices the process sees from 0 (a container renumbers them), so an id beyond ' +
      'that count fails with "set ASCEND_RT_VISIBLE_DEVICES:4 error, input data rang[0-2)". Required.',
    reads: ['npu-smi info', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.minCount, npu.family, npu.visibleDevices'],
    fix: 'Pass every NPU the deployment needs to the container (--device), repair a missing card, or correct the profile or ASCEND_RT_VISIBLE_DEVICES.',
    what: 'the NPU count',
    shape: (p: { cards: number; chips: number }) => ` (${plural(p.cards, 'card')} × ${plural(p.chips, 'chip')})`,
    wrongFamily: (p: { family: string; layout: string; wanted: string }) => `this is a ${p.family} host (${p.layout} table layout), the profile is for ${p.wanted}`,
    useProfile: 'use the profile of this hardware (--profile NAME; the README lists the built-in profiles), or move the workload to a matching node',
    tooFew: (p: { devices: number; minCount: number }) => `${plural(p.devices, 'NPU device')} visible, the profile needs at least ${p.minCount}`,
    passAll: (p: { last: number }) => `in a container pass all of them (--device /dev/davinci0 ... /dev/davinci${p.last}); on a host check "npu-smi info -l" and "lspci | grep -i d80" for a missing card`,
    invalid: (p: { source: string; problem: string }) => `${p.source} is invalid: ${p.problem}`,
    writeIds: 'write the ids as ASCEND_RT_VISIBLE_DEVICES=0,1,2,3 or a range 0-7',
    beyond: (p: { source: string; text: string; count: number; ids: string; devices: number }) =>
      `${p.source}=${p.text} names device${p.count === 1 ? '' : 's'} ${p.ids}, but only ${p.devices} are visible here (ids 0-${p.devices - 1})`,
    renumber: (p: { devices: number }) =>
      `number the devices from 0 as this ${p.devices}-device view sees them (inside a container the runtime renumbers the mapped devices), or map more devices with --device`,
    tooFewSelected: (p: { source: string; text: string; selected: number; minCount: number }) =>
      `${p.source}=${p.text} selects ${plural(p.selected, 'device')}, the profile needs ${p.minCount}`,
    selectMore: (p: { minCount: number }) => `select ${p.minCount} devices, e.g. ASCEND_RT_VISIBLE_DEVICES=0-${p.minCount - 1}`,
    partialTooFew: (p: { devices: number; minCount: number; visible: string | null; source: string }) =>
      `npu-smi's table is cut short (npu.smi says where): it lists ${plural(p.devices, 'NPU device')}, at least that many are here, ` +
      (p.visible !== null ? `and ${p.source}=${p.visible} names more than that: ` : `and the profile needs ${p.minCount}: `) +
      'the count cannot be judged from a partial table',
    passed: (p: { devices: number; atLeast: boolean; shape: string; family: string; selected: number | null; source: string; minCount: number; wanted: string | null }) =>
      `${p.atLeast ? 'at least ' : ''}${plural(p.devices, 'NPU device')}${p.atLeast ? ' (npu-smi\'s table is cut short)' : ''}${p.shape}, family ${p.family}` +
      (p.selected !== null ? `, ${p.selected} selected by ${p.source}` : '') +
      (p.minCount > 0 ? ` (profile: at least ${p.minCount}${p.wanted !== null ? `, ${p.wanted}` : ''})` : ''),
  },
  'npu.health': {
    title: 'NPU health',
    why:
      "npu-smi reports each chip's health as OK, Warning, Alarm, Critical or UNKNOWN. vllm-ascend's own worker health " +
      'check raises on anything but OK, and a chip in alarm fails collectives unpredictably, so a chip the workload will ' +
      "use must be OK: required. A non-OK chip outside ASCEND_RT_VISIBLE_DEVICES (or the profile's npu.visibleDevices) only " +
      'warns. The error codes come from npu-smi info -t health; each is looked up in the fault-code table of the Ascend ' +
      "device plugin (knowledge/fault-codes.json: its meaning, handling level and the action), and a chip is judged by its " +
      'worst code, as the device plugin judges it. A code the table does not list is said to be unknown.',
    reads: ['npu-smi info', 'npu-smi info -t health -i <card> -c <chip> (for non-OK chips)', 'ASCEND_RT_VISIBLE_DEVICES'],
    fix: 'Read the error codes (npu-smi info -t health), reset or replace the chip, or leave it out of ASCEND_RT_VISIBLE_DEVICES and the device mapping.',
    what: 'NPU health',
    /** `codes`: the codes, worst first, each as `code` or `unknownCode` says it */
    device: (p: { label: string; health: string; codes: string | null; information: string | null }) =>
      `${p.label} ${p.health}${p.codes ? `: ${p.codes}` : ''}${p.information ? ` (${p.information})` : ''}`,
    /** a code of the fault-code table: its handling level (an id of the device plugin, never translated) and its name */
    code: (p: { code: string; level: string; meaning: string | null }) => `${p.code} ${p.level}${p.meaning ? ` (${p.meaning})` : ''}`,
    unknownCode: (p: { code: string }) => `${p.code} (not in the fault-code table)`,
    codeSeparator: '; ',
    inspect: (p: { card: number; chip: number }) => `npu-smi info -t health -i ${p.card} -c ${p.chip}   # inspect: the error codes and what raised them`,
    reset: (p: { card: number; chip: number }) => `or: npu-smi set -t reset -i ${p.card} -c ${p.chip}   # reset the chip, or have it replaced`,
    resetFirst: (p: { card: number; chip: number }) => `npu-smi set -t reset -i ${p.card} -c ${p.chip}   # reset the chip, the workload stopped first: its worst code's handling level asks for it`,
    explainCode: (p: { code: string }) => `qprep explain ${p.code}   # the code's meaning, handling level and source`,
    restartWorkload: "re-run the workload on it: its worst code's handling level asks for that; reset the chip if the code comes back",
    leaveOutFirst: "leave it out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags until the fault is cleared",
    leaveOut: "or: leave it out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags",
    notOk: (p: { count: number; used: number; devices: string }) =>
      `${p.count} of ${plural(p.used, 'NPU device')} the workload uses ${p.count === 1 ? 'is' : 'are'} not OK: ${p.devices}`,
    notOkOutside: (p: { count: number; source: string; devices: string }) => `${p.count} NPU device${p.count === 1 ? '' : 's'} outside ${p.source} not OK: ${p.devices}`,
    allOk: (p: { count: number }) => (p.count === 1 ? 'the NPU device reports OK' : `all ${p.count} NPU devices report OK`),
  },
  'npu.ecc': {
    title: 'HBM ECC: uncorrectable errors and retired pages',
    why:
      "An HBM chip that starts to fail shows it in its ECC counters before it takes a job down: uncorrectable (double-bit) " +
      'errors since the driver loaded, pages the driver took out of use (isolated, "retired") and pages waiting for the ' +
      'next NPU reset to be isolated. npu-smi info -t ecc prints them per chip. A chip the workload uses fails with an ' +
      'uncorrectable error (until the HBM diagnosis clears it), a page pending isolation (a reset isolates it) or 64 retired ' +
      'pages (the isolation table is full: the card needs repair); 16 or more retired pages warn. The thresholds and what to ' +
      "do come from the Ascend fault-diagnosis knowledge graph's HBM codes and the npu-smi reference (knowledge/hbm-ecc.json). " +
      'Corrected (single-bit) errors are reported, not judged. Required; a chip outside ASCEND_RT_VISIBLE_DEVICES only warns.',
    reads: ['npu-smi info', 'npu-smi info -t ecc -i <card> (one call per card)', 'ASCEND_RT_VISIBLE_DEVICES'],
    fix: 'Take a chip with uncorrectable HBM errors out of service and have its HBM diagnosed; reset a chip with pages pending isolation; have a card whose isolation table is full repaired.',
    what: 'the HBM ECC counters',
    noHbm: 'the 310P keeps the model in DDR, not HBM: its HBM ECC is not judged',
    noDevices: 'npu-smi lists no NPU device: no HBM to read',
    unsupported: 'this driver does not report ECC counters (npu-smi info -t ecc: not supported)',
    noHbmCounters: 'npu-smi info -t ecc printed no HBM counter for any chip',
    notCaptured: 'the snapshot holds no answer of npu-smi info -t ecc: it was recorded without this check',
    noHbmFix: 'nothing to do: npu-smi info -t ecc -i <card> prints its DDR counters, npu.health reports the faults they raise',
    noDevicesFix: 'nothing to do here: npu.count reports the missing NPUs',
    unsupportedFix: 'nothing to do: npu.health reports the faults this driver raises',
    rules: {
      'isolation-full': (p: { errors: number; retired: number; pending: number }) => `${plural(p.retired, 'HBM page')} retired: the isolation table is full (64), the card needs repair`,
      'pending-isolation': (p: { errors: number; retired: number; pending: number }) => `${plural(p.pending, 'HBM page')} with uncorrectable errors pending isolation (isolated at the next reset)`,
      uncorrectable: (p: { errors: number; retired: number; pending: number }) =>
        `${plural(p.errors, 'uncorrectable (double-bit) HBM error')} since the driver loaded${p.retired > 0 ? `, ${plural(p.retired, 'page')} retired` : ''}`,
      'isolation-high': (p: { errors: number; retired: number; pending: number }) => `${plural(p.retired, 'HBM page')} retired (16 or more)`,
    } satisfies Record<HbmEccRuleId, (p: { errors: number; retired: number; pending: number }) => string>,
    chip: (p: { label: string; findings: string }) => `${p.label}: ${p.findings}`,
    failing: (p: { count: number; used: number; chips: string }) => `${p.count} of ${plural(p.used, 'NPU device')} the workload uses ${p.count === 1 ? 'has' : 'have'} failing HBM: ${p.chips}`,
    failingOutside: (p: { count: number; source: string; chips: string }) => `${p.count} NPU device${p.count === 1 ? '' : 's'} outside ${p.source} with failing HBM: ${p.chips}`,
    watching: (p: { chips: string }) => `HBM to watch: ${p.chips}`,
    replaceCard: (p: { labels: string }) => `have the card of ${p.labels} repaired or replaced: its HBM can isolate no more pages`,
    leaveOut: (p: { devices: string; labels: string }) => `export ASCEND_RT_VISIBLE_DEVICES=${p.devices}   # leave ${p.labels} out (and out of the container's --device flags) until its HBM is cleared`,
    leaveOutAll: "leave these NPUs out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags until their HBM is cleared",
    diagnose: 'ascend-dmi --dg -i hbm   # the toolbox\'s HBM diagnosis (it stops the jobs on the NPUs); replace the card if it fails',
    reset: (p: { card: number; chip: number }) => `npu-smi set -t reset -i ${p.card} -c ${p.chip}   # with the workload stopped: the pages pending isolation are isolated at the reset`,
    watch: (p: { card: number }) => `npu-smi info -t ecc -i ${p.card}   # watch the retired pages: at 64 the card needs repair`,
    unread: (p: { count: number; problems: string }) => `the ECC counters of ${plural(p.count, 'card')} could not be read: ${p.problems}`,
    readByHand: (p: { card: number }) => `run npu-smi info -t ecc -i ${p.card} on the host and read its HBM counters`,
    note: (p: { label: string; retired: number; corrected: number }) =>
      `${p.label}: ${[p.retired > 0 ? `${plural(p.retired, 'page')} retired before` : '', p.corrected > 0 ? `${plural(p.corrected, 'corrected error')}` : ''].filter(Boolean).join(' and ')}`,
    clean: (p: { count: number; notes: string | null }) =>
      `HBM of ${plural(p.count, 'NPU device')}: no uncorrectable error since the driver loaded, no page pending isolation${p.notes ? `; ${p.notes}` : ''}`,
  },
  'npu.idle': {
    title: 'NPUs free for the workload',
    why:
      'The most common late failure: another process or a forgotten container holds an NPU, and vLLM fails with "NPU out ' +
      'of memory" or a second instance dies on the same NPU after a long load. npu-smi lists the processes per NPU, and ' +
      'HBM (DDR on the 310P) far above the idle baseline means a holder npu-smi cannot see, e.g. one in another container. ' +
      "Only the NPUs in ASCEND_RT_VISIBLE_DEVICES (or the profile's npu.visibleDevices) are checked. Required.",
    reads: ['npu-smi info (process table, memory columns)', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.idleMemoryMB, npu.visibleDevices'],
    fix: 'Stop the process or container holding the NPU, or point ASCEND_RT_VISIBLE_DEVICES at free NPUs.',
    /** what cannot be checked without the NPU table */
    what: 'whether the NPUs are free',
    process: (p: { pid: number; name: string | null; memoryMB: number | null }) =>
      `pid ${p.pid}${p.name ? ` ${p.name}` : ''}${p.memoryMB !== null ? ` (${p.memoryMB} MB)` : ''}`,
    heldByProcesses: (p: { device: string; processes: string }) => `${p.device}: ${p.processes}`,
    heldByUnlisted: (p: { device: string; usedMB: number; totalMB: number; kind: string }) =>
      `${p.device}: ${p.usedMB} of ${p.totalMB} MB ${p.kind} in use, no process listed`,
    busy: (p: { busy: number; used: number; reasons: string }) => `${p.busy} of ${plural(p.used, 'NPU device')} in use: ${p.reasons}`,
    /** a remediation line: the kill command stays as written, the comment after # is for the reader */
    kill: (p: { pids: string }) => `kill ${p.pids}   # stop the holder if it is a leftover (in another container: docker ps, then docker stop it)`,
    holderOutsideView: "a process outside this view holds the memory (another container, or a process the host's npu-smi lists): run npu-smi info on the host and stop it",
    /** "or: " marks an alternative line of a remediation; the report shows it as its own label */
    useFreeDevices: (p: { devices: string }) => `or: export ASCEND_RT_VISIBLE_DEVICES=${p.devices}   # only the free NPUs`,
    pointAtFreeDevices: 'or: set ASCEND_RT_VISIBLE_DEVICES to free NPUs',
    free: (p: { used: number; processTable: boolean; memoryRange: { min: number; max: number } | null }) =>
      `${plural(p.used, 'NPU device')} free: ${p.processTable ? 'no process' : 'this driver prints no process table'}` +
      (p.memoryRange ? `, ${p.memoryRange.min}-${p.memoryRange.max} MB in use (idle baseline)` : ''),
  },
} satisfies CheckEntries;

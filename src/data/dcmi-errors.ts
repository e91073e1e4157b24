/**
 * DCMI return codes (the vendor's `dcmi_interface_api.h`, DCMI_ERROR_CODE_BASE = -8000) as
 * `npu-smi` prints them when it cannot start: `dcmi module initialize failed. ret is -8005`,
 * or for -8020 `dcmi model initialized failed, because the device is used. ret is -8020`.
 * The wording of that line differs between codes, so callers key on the code.
 *
 * `cause` and the fixes are what a person on the node should do; the in-container fix is
 * given separately because the same code means something else there (reference §6.1:
 * -8005 inside a container is, in the reported cases, an NPU held by another container).
 */
export interface DcmiError {
  code: number;
  name: string;
  cause: string;
  fixOnHost: string;
  fixInContainer: string;
}

const HELD_BY_OTHERS_IN_CONTAINER =
  'another container or process holds these NPUs: on the host run "npu-smi info" and stop the process listed for them ' +
  '(docker ps; docker stop <container>), or start this container with --device flags for free /dev/davinciN only';

export const DCMI_ERRORS: readonly DcmiError[] = [
  {
    code: -8001,
    name: 'DCMI_ERR_CODE_INVALID_PARAMETER',
    cause: 'the driver rejected a parameter (npu-smi and driver versions do not match)',
    fixOnHost: 'use the npu-smi of the installed driver (reinstall the driver package), then retry',
    fixInContainer: 'mount the host\'s npu-smi and driver libraries (-v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi -v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/) instead of copies in the image',
  },
  {
    code: -8002,
    name: 'DCMI_ERR_CODE_OPER_NOT_PERMITTED',
    cause: 'permission denied: the user may not open the NPU devices',
    fixOnHost: 'run as root or as a member of the driver\'s group (UserGroup in /etc/ascend_install.info, usually HwHiAiUser)',
    fixInContainer: 'run the container as root, or pass --privileged (the 200I Pro guide does)',
  },
  {
    code: -8003,
    name: 'DCMI_ERR_CODE_MEM_OPERATE_FAIL',
    cause: 'the driver could not allocate user-space memory',
    fixOnHost: 'free host memory (see host.memory) and retry',
    fixInContainer: 'raise the container memory limit (docker run --memory) and retry',
  },
  {
    code: -8004,
    name: 'DCMI_ERR_CODE_SECURE_FUN_FAIL',
    cause: 'an internal secure function of the driver failed',
    fixOnHost: 'collect the driver logs (/var/log/npu) and contact Huawei support',
    fixInContainer: 'collect the driver logs on the host (/var/log/npu) and contact Huawei support',
  },
  {
    code: -8005,
    name: 'DCMI_ERR_CODE_INNER_ERR',
    cause: 'the driver could not be initialized: the NPUs are held by another container, or the driver is not usable',
    fixOnHost: 'check that nothing holds the NPUs ("npu-smi info" process table, docker ps); if the host itself fails, check dmesg for davinci errors and reinstall or reload the NPU driver',
    fixInContainer: HELD_BY_OTHERS_IN_CONTAINER,
  },
  {
    code: -8006,
    name: 'DCMI_ERR_CODE_TIME_OUT',
    cause: 'the device did not answer in time',
    fixOnHost: 'retry in a minute; if it persists, check dmesg and reset the NPU (npu-smi set -t reset -i <card> -c <chip>)',
    fixInContainer: 'retry in a minute; if it persists, check dmesg on the host and reset the NPU there',
  },
  {
    code: -8007,
    name: 'DCMI_ERR_CODE_INVALID_DEVICE_ID',
    cause: 'a device id is invalid for this host',
    fixOnHost: 'check the card and chip ids against "npu-smi info -m"',
    fixInContainer: 'check the --device flags and ASCEND_RT_VISIBLE_DEVICES against the devices the host has',
  },
  {
    code: -8008,
    name: 'DCMI_ERR_CODE_DEVICE_NOT_EXIST',
    cause: 'the device does not exist or is not running',
    fixOnHost: 'check that the NPUs are visible ("lspci | grep d80", /dev/davinci*) and that the driver is loaded',
    fixInContainer: 'add the --device flags of the NPUs and the control devices (/dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc)',
  },
  {
    code: -8009,
    name: 'DCMI_ERR_CODE_IOCTL_FAIL',
    cause: 'an ioctl to the driver failed',
    fixOnHost: 'check dmesg for davinci errors; reload or reinstall the driver',
    fixInContainer: 'check that /dev/davinci_manager is passed with --device; check dmesg on the host',
  },
  {
    code: -8010,
    name: 'DCMI_ERR_CODE_SEND_MSG_FAIL',
    cause: 'the driver could not send a message to the device',
    fixOnHost: 'check dmesg; reset the NPU or reboot the node',
    fixInContainer: 'check dmesg on the host; reset the NPU there',
  },
  {
    code: -8011,
    name: 'DCMI_ERR_CODE_RECV_MSG_FAIL',
    cause: 'the driver got no reply from the device',
    fixOnHost: 'check dmesg; reset the NPU or reboot the node',
    fixInContainer: 'check dmesg on the host; reset the NPU there',
  },
  {
    code: -8012,
    name: 'DCMI_ERR_CODE_NOT_REDAY',
    cause: 'the device is not ready yet (still starting after a boot or a reset)',
    fixOnHost: 'wait a minute and retry',
    fixInContainer: 'wait a minute and retry',
  },
  {
    code: -8013,
    name: 'DCMI_ERR_CODE_NOT_SUPPORT_IN_CONTAINER',
    cause: 'this operation is not supported inside a container',
    fixOnHost: 'run the command on the host',
    fixInContainer: 'run the command on the host, or pass --privileged',
  },
  {
    code: -8014,
    name: 'DCMI_ERR_CODE_FILE_OPERATE_FAIL',
    cause: 'a driver file could not be read or written',
    fixOnHost: 'check that the driver files exist and are readable (/usr/local/Ascend/driver, /etc/ascend_install.info)',
    fixInContainer: 'mount the driver files from the host (-v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/ -v /etc/ascend_install.info:/etc/ascend_install.info)',
  },
  {
    code: -8015,
    name: 'DCMI_ERR_CODE_RESET_FAIL',
    cause: 'an NPU reset failed',
    fixOnHost: 'reboot the node; if it persists, contact Huawei support',
    fixInContainer: 'reboot the node; if it persists, contact Huawei support',
  },
  {
    code: -8016,
    name: 'DCMI_ERR_CODE_ABORT_OPERATE',
    cause: 'the driver aborted the operation',
    fixOnHost: 'retry; check dmesg',
    fixInContainer: 'retry; check dmesg on the host',
  },
  {
    code: -8017,
    name: 'DCMI_ERR_CODE_IS_UPGRADING',
    cause: 'a firmware upgrade is in progress',
    fixOnHost: 'wait for the upgrade to finish (npu-smi upgrade -q) and retry',
    fixInContainer: 'wait for the firmware upgrade on the host to finish and retry',
  },
  {
    code: -8020,
    name: 'DCMI_ERR_CODE_RESOURCE_OCCUPIED',
    cause: 'the device is used: another process or container holds it',
    fixOnHost: 'find the holder ("npu-smi info" process table on the host, docker ps) and stop it',
    fixInContainer: HELD_BY_OTHERS_IN_CONTAINER,
  },
  {
    code: -8022,
    name: 'DCMI_ERR_CODE_PARTITION_NOT_RIGHT',
    cause: 'the flash partition is not as expected',
    fixOnHost: 'reinstall the firmware package; if it persists, contact Huawei support',
    fixInContainer: 'reinstall the firmware package on the host',
  },
  {
    code: -8023,
    name: 'DCMI_ERR_CODE_CONFIG_INFO_NOT_EXIST',
    cause: 'the queried configuration was never set',
    fixOnHost: 'configure it first, then query',
    fixInContainer: 'configure it on the host first, then query',
  },
  {
    code: -8255,
    name: 'DCMI_ERR_CODE_NOT_SUPPORT',
    cause: 'this device or driver does not support the operation',
    fixOnHost: 'check that npu-smi belongs to the installed driver (reinstall the driver package)',
    fixInContainer: 'mount the host\'s npu-smi and driver libraries instead of copies in the image',
  },
];

export function dcmiError(code: number): DcmiError {
  return (
    DCMI_ERRORS.find((e) => e.code === code) ?? {
      code,
      name: 'unknown DCMI code',
      cause: `DCMI error ${code}, not in the vendor's table`,
      fixOnHost: 'check dmesg and the driver logs (/var/log/npu); reinstall the driver if the host\'s npu-smi fails too',
      fixInContainer: 'run "npu-smi info" on the host: if it works there, compare this container\'s --device and -v flags with the guide\'s',
    }
  );
}

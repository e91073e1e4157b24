import type { probes as en } from '../en/probes.js';

export const probes: typeof en = {
  file: {
    notFound: (p) => `${p.path}：文件或目录不存在`,
    denied: (p) => `${p.path}：权限不足`,
    notCaptured: (p) => `${p.path}：快照中未录制`,
    exists: (p) => `${p.path}：已存在`,
    other: (p) => `${p.path}：${p.message}`,
  },
  command: {
    timedOut: (p) => `"${p.line}" 未在 ${p.timeoutMs} ms 内结束，已连同其子进程一起终止`,
    notFound: (p) => `"${p.line}"：找不到命令`,
    failure: (p) => `"${p.line}"：${p.failure}`,
    killed: (p) => `"${p.line}" 被 ${p.signal} 终止`,
    exited: (p) => `"${p.line}" 以退出码 ${p.exitCode} 退出${p.detail ? `：${p.detail}` : ''}`,
  },
  npu: {
    deviceOfChip: (p) => `设备 ${p.device}（NPU 卡 ${p.card} 芯片 ${p.chip}）`,
    card: (p) => `NPU ${p.card}`,
    noNpuToAsk: 'npu-smi 没有给出可查询的 NPU',
    inventoryUnavailable: (p) => `无法检查 ${p.what}：${p.problem}`,
    sameCause: (p) => `${p.remediation}（npu.smi 报告了同一原因）`,
    problems: {
      notFound: (p) => `找不到 npu-smi（不在 PATH 中，也不在 ${p.dirs} 中）`,
      dcmi: (p) => `${p.line} 失败："${p.text}"（${p.name}：${p.cause}）`,
      libraryMissing: (p) => `${p.line} 无法启动：缺少 ${p.library}（${p.text}）`,
      noNpu: (p) => `${p.line} 输出：${p.text}`,
      killed: (p) => `${p.problem}${p.output ? `：${p.output}` : '，且没有任何输出'}`,
      exited: (p) => `${p.line} 以退出码 ${p.exitCode} 退出${p.output ? `：${p.output}` : '，且没有任何输出'}`,
      unparseable: (p) => `无法读取 ${p.line} 的输出：第 ${p.lineNumber} 行：${p.reason}${p.text ? `（"${p.text}"）` : ''}`,
    },
    remediation: {
      notFoundInContainer: (p) => `在 docker run 中加上 ${p.flag}（有些主机上它在 /usr/local/sbin：改为挂载该路径）`,
      notFoundOnHost: '安装 NPU 驱动包（npu-smi 随驱动提供），或将其所在目录加入 PATH',
      timeout:
        '驱动可能已卡死：查找卡住的 npu-smi 进程（ps -ef | grep npu-smi）和 dmesg 中的 davinci 错误；若持续存在，复位 NPU 或重启节点（或用更大的 --timeout 重新运行）',
      notCaptured: '在宿主机上用 "qprep snapshot -o FILE" 重新录制快照',
      flooded: 'npu-smi 输出远多于其表格：手动运行 "npu-smi info | head -50"，若输出是乱码则修复或重装驱动',
      notExecutable: '让当前用户可以执行 npu-smi，或以 root 运行 qprep',
      killed: (p) => `npu-smi 崩溃（${p.signal}）：手动运行 "npu-smi info"，在 dmesg 中查找 davinci 或 dcmi 错误；若一直崩溃则重装驱动`,
      failed: '手动运行该命令并阅读其输出；若 npu-smi 本身已损坏则重装驱动',
      libraryInContainer: (p) => `在 docker run 中加上 ${p.mount}`,
      libraryOnHost: (p) => `重装 NPU 驱动包（${p.library} 属于它），然后运行 ldconfig`,
      noNpuInContainer: '将 NPU 传入容器（每块用 --device /dev/davinciN，以及各控制设备）',
      noNpuOnHost: '驱动看不到任何 NPU：检查 "lspci | grep -i d80" 和 dmesg，然后重装驱动和固件',
      unparseable: '附上输出报告此问题（"qprep snapshot -o FILE --only npu" 会录下它）',
    },
  },
};

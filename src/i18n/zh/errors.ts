import type { errors as en } from '../en/errors.js';

export const errors: typeof en = {
  checkTimedOut: (p) => `${p.id} 未在 ${p.budgetMs} ms 内结束`,
  largerTimeout: (p) => `用更大的 --timeout 重新运行；若仍然如此，用 "qprep snapshot -o snap.json --only ${p.id}" 录下主机并报告`,
  internalError: (p) => `${p.id} 内部错误：${p.reason}`,
  reportInternal: (p) => `请附上 "qprep snapshot -o snap.json --only ${p.id}" 的结果报告此问题`,
  unfinished: (p) => `未完成：qprep 被 ${p.signal} 中断`,
  runAgain: '重新运行 qprep check 并等它完成（每次探测都受 --timeout 限制；调用方自己的超时应大于它）',
  interruptedChecks: (p) => `被 ${p.signal} 中断：${p.total} 项检查中有 ${p.unfinished} 项未完成；无结论`,
  interruptedReport: (p) => `检查结束后、报告完成前被 ${p.signal} 中断；无结论`,
  nothingAssessed: (p) => `所选的 ${p.count} 项检查全部跳过：没有评估任何内容；无结论`,
  nothingAssessedHint: '选择适用于此主机的检查，或提供它们所需的输入（--launch、--cluster）；每个跳过都说明了原因',
  positiveInteger: (p) => `${p.flag} 需要一个正整数，得到的是 "${p.value}"`,
  duration: (p) => `${p.flag} 需要一个时长，例如 10s、500ms 或 2m（纯数字为毫秒），得到的是 "${p.value}"`,
  didYouMean: (p) => `您是否要输入 "${p.name}"？`,
  seeHelp: '运行 "qprep --help"（或 "qprep COMMAND --help"）查看用法',
  unknownCheck: (p) => `未知的检查 "${p.id}"`,
  listShowsIds: 'qprep list 列出所有检查 id',
  unknownSelector: (p) => `${p.flag}：未知的检查或类别 "${p.token}"`,
  selectorChoices: (p) => `此处可选：${p.names}`,
  listShowsSelectors: (p) => `qprep list 列出所有检查 id 和类别（${p.categories}）`,
};

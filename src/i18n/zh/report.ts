import type { report as en } from '../en/report.js';

/** 人读的报告与各格式共用的文字。 */
export const report: typeof en = {
  // 列表项本身常含逗号和冒号，用分号分隔才不混淆
  list: {
    separator: '；',
    andMore: (p) => `${p.list} 等（另有 ${p.more} 项）`,
  },
};

import type { commands as en } from '../en/commands.js';

export const commands: typeof en = {
  list: {
    columns: { id: 'ID', level: '级别', category: '类别', title: '标题' },
    category: (p) => `${p.key}（${p.heading}）`,
    selectors: (p) => `--only 与 --skip 接受 id、id 前缀（npu、hccn）和类别：${p.categories}`,
  },
  env: {
    header: (p) => `# qprep env：${p.hostname}（profile ${p.profile}）；加载方式：source <(qprep env)`,
    node: (p) => `# 节点地址 ${p.ip}，接口 ${p.nic}（${p.source}）`,
    note: (p) => `# 注意：${p.note}`,
  },
  explain: {
    heading: (p) => `${p.id}：${p.title}`,
    wrapParagraphs: false,
    category: (p) => `类别：${p.category} · 级别：${p.level}${p.required ? '（失败或错误会使节点未就绪）' : '（失败报告为警告）'}`,
    why: '为什么重要：',
    reads: '读取什么：',
    fix: '如何修复：',
  },
};

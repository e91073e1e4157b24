import { describe, expect, it } from 'vitest';
import { DEBUGFS_PATH, SYSCTL_PATH } from '../../../checks/sched.migration-cost.js';
import { JOURNAL_PATH } from '../../../src/core/tune/journal.js';
import { en } from '../../../src/i18n/en/index.js';
import { zh } from '../../../src/i18n/zh/index.js';
import { jemallocCandidates, LIBRARY } from '../../../src/probes/jemalloc.js';
import { HCCN_TOOL_DIRS, NPU_SMI_DIRS } from '../../../src/host/tool-dirs.js';

/**
 * A check's `reads` is catalogue text (what `qprep explain` and docs/checks.md show), but some of
 * it names what the code searches: those lists must follow the code, in both languages.
 */
describe('the reads of the catalogue', () => {
  it.each([
    ['mem.jemalloc', [...jemallocCandidates('<arch>'), 'ldconfig -p', 'LD_PRELOAD']],
    ['npu.tools', [`PATH, ${NPU_SMI_DIRS.join(', ')} (npu-smi)`, `PATH, ${HCCN_TOOL_DIRS.join(', ')} (hccn_tool)`]],
    ['tune.journal', [JOURNAL_PATH]],
    ['sched.migration-cost', [SYSCTL_PATH, DEBUGFS_PATH]],
  ] as const)('%s names the places the code searches', (id, places) => {
    expect(en.checks[id].reads).toEqual(places);
    expect(zh.checks[id].reads).toEqual(places);
  });

  it('launch.env names the library it looks for', () => {
    expect(en.checks['launch.env'].reads).toContain(`${LIBRARY} locations`);
  });
});

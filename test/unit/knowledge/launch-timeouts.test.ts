import { describe, expect, it } from 'vitest';
import { defaultTimeout, launchTimeoutRowSchema, launchTimeoutsTable } from '../../../src/knowledge/launch-timeouts.js';

describe('knowledge/launch-timeouts.json', () => {
  it('is valid against its schema, every row with a source that names a commit or a release and quotes it', () => {
    for (const row of launchTimeoutsTable.rows()) {
      expect(row.source.ref, row.variable).toMatch(/^([0-9a-f]{40}|CANN \S+)$/);
      expect(row.source.quote, row.variable).toBeTruthy();
    }
  });

  it('refuses a row without a source, or a source with neither a repository file nor a url', () => {
    const { source: _source, ...unsourced } = launchTimeoutsTable.rows()[0]!;
    expect(launchTimeoutRowSchema.safeParse(unsourced).success).toBe(false);
    expect(launchTimeoutRowSchema.safeParse({ ...unsourced, source: { ref: 'v1', quote: 'x' } }).success).toBe(false);
  });

  it("gives HCCL_EXEC_TIMEOUT's default by HCCL_OP_EXPANSION_MODE, as the CANN reference does", () => {
    expect(defaultTimeout('HCCL_EXEC_TIMEOUT', () => undefined)?.default).toBe(1836);
    expect(defaultTimeout('HCCL_EXEC_TIMEOUT', (name) => (name === 'HCCL_OP_EXPANSION_MODE' ? 'AIV' : undefined))?.default).toBe(1091);
    expect(defaultTimeout('VLLM_ENGINE_READY_TIMEOUT_S', () => undefined)).toMatchObject({ default: 600, unit: 's', component: 'vllm' });
    expect(defaultTimeout('NO_SUCH_TIMEOUT', () => undefined)).toBeUndefined();
  });
});

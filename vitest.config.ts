import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Three groups, each runnable alone (`vitest run --project NAME`): `unit` (pure code, no build
 * needed; `npm run test:unit`), `e2e` (the built CLI as a user runs it) and `slow` (network and
 * mount namespaces, Ansible, the robustness suite with its hung, killed and flooding tools).
 * `npm test` runs all three.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // most of the e2e and slow files wait (on a tool's latency, a namespace's network, Ansible):
    // two files at a time even on 2 cores, where vitest's default (one less than the cores)
    // would run them one by one
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/setup-lang.ts'],
    projects: [
      {
        extends: true,
        // the unit files share their workers' module cache: loading the engine once per worker
        // instead of once per file is most of the time of this group
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      { extends: true, test: { name: 'slow', include: ['test/integration/**/*.test.ts', 'test/robustness/**/*.test.ts'] } },
    ],
  },
});

import { createRequire } from 'node:module';

declare const __QPREP_VERSION__: string | undefined;

/** package.json seen from dist/src/version.js (the build) or from src/version.ts (tests importing the sources). */
function packageVersion(): string {
  const require = createRequire(import.meta.url);
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const found = require(candidate) as { name?: string; version?: string };
      if (found.name === 'qprep' && typeof found.version === 'string') return found.version;
    } catch {
      // not at this level
    }
  }
  return '0.0.0';
}

/** The package version; the single-file bundle has it defined at build time. */
export const VERSION: string = typeof __QPREP_VERSION__ === 'string' ? __QPREP_VERSION__ : packageVersion();

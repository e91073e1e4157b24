import { createRequire } from 'node:module';

declare const __QPREP_VERSION__: string | undefined;

/** The package version; the single-file bundle has it defined at build time. */
export const VERSION: string =
  typeof __QPREP_VERSION__ === 'string' ? __QPREP_VERSION__ : (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

import { createRequire } from 'node:module';

/** The package version, read once; the same relative path holds from `src/` (tsx) and `dist/` (built). */
export const VERSION: string = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

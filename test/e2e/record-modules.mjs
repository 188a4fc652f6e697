// Preloaded into a spawned imagegate with NODE_OPTIONS=--import=<this file> (test/e2e/tracing.test.ts): writes to
// $RECORD_MODULES_FILE every module URL the process resolves (ESM imports, the dynamic ones included) and, at exit,
// every CommonJS module it loaded, so a test can tell whether a package was ever loaded.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.RECORD_MODULES_FILE;
if (file !== undefined && file !== '') {
  register(new URL('./record-modules-hooks.mjs', import.meta.url), { data: { file } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => appendFileSync(file, `${Object.keys(require.cache).join('\n')}\n`));
}

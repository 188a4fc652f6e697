import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { pino } from 'pino';
import ts from 'typescript';
import { createMemoryBlobStore } from '../src/adapters/blob/memory-blob-store.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/runtimes/node/config.js';
import { buildDeps } from '../src/runtimes/node/deps.js';
import { VERSION } from '../src/runtimes/node/version.js';

/** Where the web app's generated API types live; `web/src/api/types.ts` names its types from them. */
export const SCHEMA_FILE = path.resolve(import.meta.dirname, '../web/src/api/schema.d.ts');

/**
 * The service's own /openapi.json, asked of an app built in this process (in-memory database and images,
 * nothing listening), in the key mode the web app is written for.
 */
export async function fetchOpenApi(): Promise<OpenAPI3> {
  // Only these settings: whatever the shell has (DATABASE_URL, STORAGE_DRIVER…) must not change the document.
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const runtime = await buildDeps(config, { logger: pino({ level: 'silent' }), blobs: createMemoryBlobStore('http://127.0.0.1:8787/files') });
  try {
    const app = createApp({ deps: runtime.deps, version: VERSION, config: { authMode: 'api_key', allowedIps: [], clientIpHeader: 'CF-Connecting-IP' } });
    const response = await app.request('/openapi.json');
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as OpenAPI3;
  } finally {
    await runtime.close();
  }
}

const BLOB = ts.factory.createTypeReferenceNode('Blob');

/**
 * schema.d.ts as `npm run gen:api-types` writes it, from the document of the code as it is now. A file field of a
 * multipart form (`format: binary`) is a Blob, which is what the browser sends, rather than openapi-typescript's string.
 */
export async function generateApiTypes(): Promise<string> {
  const ast = await openapiTS(await fetchOpenApi(), { silent: true, transform: (schema) => (schema.format === 'binary' ? BLOB : undefined) });
  return `/**\n * Generated from /openapi.json by \`npm run gen:api-types\` (scripts/gen-api-types.ts): do not edit.\n * Run it again after changing a route or schema; test/browser/api-types.test.ts fails until you do.\n */\n\n${astToString(ast)}`;
}

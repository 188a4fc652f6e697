import { builtinModules } from 'node:module';
import tsParser from '@typescript-eslint/parser';

/**
 * Domain, ports, HTTP routes and the app are the runtime-neutral core: they run on Node and, later, on
 * Cloudflare Workers. Anything Node-only sits behind a port, in src/adapters or src/runtimes/node.
 */
const WHY = 'runs on Workers too: put Node-only code behind a port in src/adapters or in src/runtimes/node';

/** Packages that need Node (native addons, sockets, worker threads, the file system). */
const NODE_ONLY_PACKAGES = [
  'better-sqlite3',
  'pg',
  'ioredis',
  'bullmq',
  'piscina',
  'pino',
  'sharp',
  '@hono/node-server',
  'undici',
  'prom-client',
  'swagger-ui-dist',
  '@opentelemetry/sdk-*',
  '@opentelemetry/exporter-*',
  // Its cluster and PM2 limiters load node:cluster from the package's index.
  'rate-limiter-flexible',
];

/** Top-level names only (`fs`, not `fs/promises`): their subpaths are caught by the `name/*` patterns. */
const builtins = builtinModules.filter((name) => !name.startsWith('_') && !name.includes('/'));

export const neutralImportRule = [
  'error',
  {
    // Bare names as exact paths: as gitignore-style patterns, `domain` or `path` would also match `../domain/x.js`.
    paths: builtins.map((name) => ({ name, message: `Node built-in: ${WHY}` })),
    patterns: [
      { group: ['node:*'], message: `Node built-in: ${WHY}` },
      // A slash in the middle anchors a pattern to the start of the specifier, so `fs/*` never matches `./fs/x.js`.
      { group: builtins.map((name) => `${name}/*`), message: `Node built-in: ${WHY}` },
      { group: NODE_ONLY_PACKAGES.flatMap((name) => [name, `${name}/*`]), message: `Node-only package: ${WHY}` },
    ],
  },
];

/** `src/mcp` is reached from the /mcp route, so it is part of the core too. */
/** Node's own globals: on Workers they are missing (or need the nodejs_compat flag). Web APIs are the neutral choice. */
const NODE_GLOBALS = ['process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'setImmediate', 'clearImmediate'];

export const neutralGlobalRule = ['error', ...NODE_GLOBALS.map((name) => ({ name, message: `Node global: ${WHY}` }))];

/** `await import('node:fs')` loads Node code as surely as a static import. */
export const neutralSyntaxRule = [
  'error',
  { selector: `ImportExpression[source.value=/^(node:.*|${builtins.join('|')})$/]`, message: `Node built-in: ${WHY}` },
  // esquery ends a regex at its first `/`, so the slashes of scoped names are written \\u002F.
  {
    selector: `ImportExpression[source.value=/^(${NODE_ONLY_PACKAGES.map((name) => name.replace('/', '\\u002F').replace('*', '.*')).join('|')})(\\u002F|$)/]`,
    message: `Node-only package: ${WHY}`,
  },
];

/** Adapters written for every runtime (Workers among them) are held to the same rule, file by file. */
const NEUTRAL_ADAPTERS = [
  'src/adapters/webhooks/address-policy.ts',
  'src/adapters/webhooks/doh-lookup.ts',
  'src/adapters/webhooks/fetch-webhook-transport.ts',
  'src/adapters/blob/r2-blob-store.ts',
  'src/adapters/rate-limit/fixed-window.ts',
  'src/adapters/rate-limit/durable-object-rate-limiter.ts',
  'src/adapters/db/unit-of-work.ts',
  'src/adapters/db/d1-unit-of-work.ts',
  'src/adapters/db/d1.ts',
  'src/adapters/queue/cloudflare-queue.ts',
  'src/adapters/queue/queue-messages.ts',
  'src/adapters/queue/job-store.ts',
  'src/adapters/queue/retry-policy.ts',
  'src/adapters/codec/**/*.ts',
  'src/adapters/providers/procedural/render-pixels.ts',
  'src/adapters/providers/procedural/edit-pixels.ts',
  // Workers AI through the AI binding, and the modules it imports.
  'src/adapters/providers/workers-ai/workers-ai-binding-provider.ts',
  'src/adapters/providers/workers-ai/workers-ai-binding-spec.ts',
  'src/adapters/providers/workers-ai/workers-ai-protocol.ts',
  'src/adapters/providers/workers-ai/workers-ai-inputs.ts',
  'src/adapters/providers/workers-ai/inpainting-mask.ts',
  'src/adapters/providers/sniff-image-type.ts',
  // The provider registry and what it loads on every runtime: each provider's spec, settings and models (ComfyUI's
  // provider.ts needs Node, and runtimes/node adds it; its settings.ts is read everywhere).
  'src/adapters/providers/registry.ts',
  'src/adapters/providers/provider-spec.ts',
  'src/adapters/providers/provider-settings.ts',
  'src/adapters/providers/!(comfyui)/provider.ts',
  'src/adapters/providers/comfyui/settings.ts',
  'src/adapters/providers/*/*-models.ts',
];

export const NEUTRAL_FILES = [
  'src/domain/**/*.ts',
  'src/ports/**/*.ts',
  'src/http/**/*.ts',
  'src/mcp/**/*.ts',
  'src/app.ts',
  'src/config/**/*.ts',
  'src/providers.ts',
  'src/runtimes/workers/**/*.ts',
  ...NEUTRAL_ADAPTERS,
];

export default [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' },
    // Only the import rule runs here; directives kept in the code for other rules are not "unused".
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  {
    files: NEUTRAL_FILES,
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': neutralImportRule, 'no-restricted-globals': neutralGlobalRule, 'no-restricted-syntax': neutralSyntaxRule },
  },
];

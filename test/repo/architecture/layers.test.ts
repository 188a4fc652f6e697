import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruiseLayers } from '../../../scripts/layers.js';

/** A tree laid out as the repository's src, each file in it an allowed import or a breach of one rule. */
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'layers');

/** `rule: from -> to`, a package named as such wherever its node_modules is. */
async function breaches(baseDir?: string): Promise<string[]> {
  const { summary } = await cruiseLayers(baseDir);
  const named = (module: string) => module.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$1');
  return summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${named(violation.to)}`).sort();
}

describe('the layers (.dependency-cruiser.cjs, checked by npm run lint)', () => {
  it('hold in src', async () => {
    expect(await breaches()).toEqual([]);
  }, 60_000);

  it('refuse every import across them, each by its rule, and let the allowed ones through', async () => {
    expect(await breaches(FIXTURES)).toEqual(
      [
        'domain-is-pure: src/domain/imports-adapter.ts -> src/adapters/store.ts',
        'domain-is-pure: src/domain/imports-hono-types.ts -> hono',
        'domain-is-pure: src/domain/imports-node.ts -> fs',
        'domain-is-pure: src/domain/imports-test-support.ts -> src/test-support/harness.ts',
        'no-test-support-in-the-service: src/domain/imports-test-support.ts -> src/test-support/harness.ts',
        'no-circular: src/domain/cycle-a.ts -> src/domain/cycle-b.ts',
        'ports-are-interfaces: src/ports/imports-domain.ts -> src/domain/plain.ts',
        'adapters-below-the-domain: src/adapters/imports-domain.ts -> src/domain/plain.ts',
        // A provider adapter may read its models' catalogue entry (paint-provider.ts -> catalog/paint.ts), nothing else.
        'provider-adapters-only-to-their-catalogue: src/adapters/providers/paint/paint-provider.ts -> src/domain/plain.ts',
        'adapters-not-above-ports: src/adapters/imports-runtime.ts -> src/runtimes/node/version.ts',
        // Test helpers may build one (test-support/harness.ts -> runtimes/node/version.ts).
        'nothing-below-imports-a-runtime: src/adapters/imports-runtime.ts -> src/runtimes/node/version.ts',
        // Provider adapters may take the registry's types (paint-spec.ts); no other adapter may.
        'adapters-not-to-the-provider-registry: src/adapters/imports-registry.ts -> src/providers.ts',
        'transports-not-to-adapters-or-roots: src/http/imports-adapter.ts -> src/adapters/store.ts',
        'transports-not-to-adapters-or-roots: src/mcp/imports-entry.ts -> src/runtimes/node/entry/node.ts',
        'nothing-below-imports-a-runtime: src/mcp/imports-entry.ts -> src/runtimes/node/entry/node.ts',
        'nothing-imports-an-entry-point: src/mcp/imports-entry.ts -> src/runtimes/node/entry/node.ts',
        'mcp-not-to-http: src/mcp/imports-http.ts -> src/http/errors.ts',
        // Mounting MCP from src/http/routes/mcp/ is the one import from HTTP into MCP.
        'http-to-mcp-only-to-mount-it: src/http/imports-mcp.ts -> src/mcp/tool.ts',
        'settings-below-the-transports: src/config/config.ts -> src/http/errors.ts',
        'provider-registry-below-the-transports: src/providers.ts -> src/http/errors.ts',
        'node-runtime-apart-from-workers: src/runtimes/node/imports-workers.ts -> src/runtimes/workers/worker.ts',
        // The Worker's handlers (runtimes/workers/worker.ts) are an entry point as Node's processes are.
        'nothing-imports-an-entry-point: src/runtimes/node/imports-workers.ts -> src/runtimes/workers/worker.ts',
        'workers-runtime-apart-from-node: src/runtimes/workers/imports-node.ts -> src/runtimes/node/version.ts',
        // A runtime's entry points are in its folder, so the runtimes' rule keeps them apart too.
        'node-runtime-apart-from-workers: src/runtimes/node/entry/imports-workers.ts -> src/runtimes/workers/worker.ts',
      ].sort(),
    );
  }, 60_000);
});

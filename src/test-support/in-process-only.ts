import { describe, it } from 'vitest';
import { HARNESS_TARGET } from './harness.js';

const remote = HARNESS_TARGET !== 'in-process';

/**
 * Tests that reach into the service's process: its `deps`, a stand-in provider or transport, jobs driven by hand.
 * Where the service runs in wrangler dev's workerd (the wrangler-dev project), they are skipped.
 */
export const inProcessOnly = { it: it.skipIf(remote), describe: describe.skipIf(remote) };

/**
 * What the Worker does differently by design, each listed in docs/cloudflare-workers.md: its codec reads and
 * writes PNG only (no JPEG or WebP, no thumbnails), and /docs points at /openapi.json. Skipped where it runs in workerd.
 */
export const nodeOnly = { it: it.skipIf(remote), describe: describe.skipIf(remote) };

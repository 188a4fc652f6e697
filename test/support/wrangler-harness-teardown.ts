import { afterAll } from 'vitest';
import { stopSharedWrangler } from '../../src/test-support/wrangler-harness.js';

// The wrangler-dev project's harnesses share one `wrangler dev` per test file; it stops with the file.
afterAll(stopSharedWrangler, 30_000);

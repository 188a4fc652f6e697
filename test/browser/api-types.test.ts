import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateApiTypes, SCHEMA_FILE } from '../../scripts/api-types.js';

describe("the web app's API types", () => {
  it('are what /openapi.json says today: schema.d.ts is regenerated and compared', async () => {
    const fresh = await generateApiTypes();
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    // A plain boolean first: a diff of two 100 kB strings would bury the one thing to do.
    expect(committed === fresh, 'web/src/api/schema.d.ts is out of date with the API: run npm run gen:api-types and commit the result').toBe(true);
  });
});

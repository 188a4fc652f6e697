import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { createHarness } from '../../../src/test-support/harness.js';

/** The committed Redocly settings (extends: recommended, and each rule turned off with its reason). */
const settings = readFileSync(new URL('../../../redocly.yaml', import.meta.url), 'utf8');

const ALLOWED = '203.0.113.7';

async function lintServed(options: Parameters<typeof createHarness>[0]): Promise<string[]> {
  const h = await createHarness({ workers: false, ...options });
  try {
    const source = await (await h.app.request('/openapi.json', { headers: { 'CF-Connecting-IP': ALLOWED } })).text();
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config: await createConfig(settings) });
    return problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`);
  } finally {
    await h.close();
  }
}

describe("/openapi.json under Redocly's recommended rules", () => {
  it('has no error and no warning in API-key mode', async () => {
    expect(await lintServed({})).toEqual([]);
  });

  it('has no error and no warning in IP allow-list mode', async () => {
    expect(await lintServed({ config: loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: ALLOWED }) })).toEqual([]);
  });

  it('turns off no rule without a comment that says why', () => {
    const off = [...settings.matchAll(/^(\s*#.*\n)*\s*([\w-]+): off$/gm)];
    for (const match of off) expect(match[1], `${match[2]} has no reason`).toBeDefined();
  });
});

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIGURES_PAGE, FIGURE_TOLERANCE, asKb, buildWebApp, statedWebScriptKb, webScriptGzipBytes, withWebScriptKb } from '../../../scripts/docs-figures.js';

/**
 * The size of the web app's script that docs/getting-started.md states is the size of a build of the current sources:
 * a change to web/ that grows it past the tolerance fails here until `npm run docs:figures` writes the new figure.
 */
describe("the docs' figures", () => {
  let buildDir = '';

  beforeAll(async () => {
    buildDir = await buildWebApp();
  }, 120_000);

  afterAll(() => {
    if (buildDir !== '') fs.rmSync(buildDir, { recursive: true, force: true });
  });

  it(`state the web app's script size gzipped within ${FIGURE_TOLERANCE * 100} % of a build's`, () => {
    const measured = webScriptGzipBytes(buildDir);
    const stated = statedWebScriptKb(fs.readFileSync(FIGURES_PAGE, 'utf8'));
    const off = Math.abs(stated * 1000 - measured) / measured;
    expect(off, `docs/getting-started.md says about ${stated} kB; a build's script is ${measured} bytes gzipped (about ${asKb(measured)} kB): run npm run docs:figures`).toBeLessThanOrEqual(FIGURE_TOLERANCE);
  });

  it('rewrite only the figure', () => {
    const page = 'Preact (the whole\napp is about 22 kB of script gzipped), and';
    expect(statedWebScriptKb(page)).toBe(22);
    expect(withWebScriptKb(page, 37)).toBe('Preact (the whole\napp is about 37 kB of script gzipped), and');
  });
});

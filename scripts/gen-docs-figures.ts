import fs from 'node:fs';
import path from 'node:path';
import { FIGURES_PAGE, asKb, buildWebApp, statedWebScriptKb, webScriptGzipBytes, withWebScriptKb } from './docs-figures.js';

/** `npm run docs:figures`: builds the web app, measures its script gzipped, and writes the figure into the docs. */
const buildDir = await buildWebApp();
try {
  const bytes = webScriptGzipBytes(buildDir);
  const page = fs.readFileSync(FIGURES_PAGE, 'utf8');
  const before = statedWebScriptKb(page);
  fs.writeFileSync(FIGURES_PAGE, withWebScriptKb(page, asKb(bytes)));
  console.log(`${path.relative(process.cwd(), FIGURES_PAGE)}: the web app's script is ${bytes} bytes gzipped: about ${asKb(bytes)} kB (was ${before} kB)`);
} finally {
  fs.rmSync(buildDir, { recursive: true, force: true });
}

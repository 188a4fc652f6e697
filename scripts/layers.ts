import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const ROOT = path.resolve(import.meta.dirname, '..');
export const LAYERS_CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

/**
 * dependency-cruiser with the project's rules (.dependency-cruiser.cjs) over `<baseDir>/src`, through its API: its
 * CLI (`depcruise`) refuses to start on Node 20, which the service supports (package.json engines). The rules'
 * paths are relative to `baseDir`, so a fixture tree laid out as the repository is checked as the repository is.
 */
export async function cruiseLayers(baseDir: string = ROOT): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(LAYERS_CONFIG);
  const { output } = await cruise(['src'], { ...options, baseDir });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered with a report where its result was expected');
  return output;
}

import path from 'node:path';
import { parseConfig, type Config } from '../../config/config.js';
import type { ConfigPaths } from '../../config/paths.js';

/** Paths in settings are taken relative to the directory the process was started in, as a shell user expects. */
const NODE_PATHS: ConfigPaths = { resolve: (file) => path.resolve(file), join: (directory, file) => path.join(directory, file) };

/** The process environment as a typed Config, parsed once at start; a bad setting stops start-up naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(env, NODE_PATHS);
}

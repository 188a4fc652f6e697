/**
 * How a runtime turns the paths in settings (DATA_DIR, COMFYUI_WORKFLOWS, WEB_APP_DIR, a sqlite: URL) into the
 * paths its adapters open: absolute against the working directory on Node (runtimes/node/config.ts), as written
 * on Workers, which has no file system and uses none of them.
 */
export interface ConfigPaths {
  resolve(path: string): string;
  join(directory: string, file: string): string;
}

/** Paths kept as written, joined with a slash: for runtimes without a file system. */
export const PLAIN_PATHS: ConfigPaths = {
  resolve: (path) => path,
  join: (directory, file) => `${directory.replace(/\/+$/, '')}/${file}`,
};

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './built-cli.js';
import { codeBlocks, docsSection } from './docs-blocks.js';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * What docs/mcp.md tells MCP clients and CLI users to run, from a folder that is not the clone: the
 * installed command is `bin/imagegate.js` (what `npm install -g .` links), which runs the build in `dist/`.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/imagegate.js');
const ADMIN = 'igk_e2e_docs_mcp_admin_secret';

interface McpServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

const mcpPage = (): string => docsSection('mcp.md', 'MCP server for AI agents');

const documentedConfig = (): McpServerEntry => {
  const [block] = codeBlocks(mcpPage(), 'json');
  const config = JSON.parse(block ?? '{}') as { mcpServers?: { imagegate?: McpServerEntry } };
  if (config.mcpServers?.imagegate === undefined) throw new Error('docs/mcp.md has no { "mcpServers": { "imagegate": ... } } block');
  return config.mcpServers.imagegate;
};

let server: ServerProcess;
let dataDir = '';
let agent: { id: string; key: string };

beforeAll(async () => {
  await ensureBuilt();
  dataDir = tempDataDir();
  server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN });
  const created = await fetch(`${server.url}/api/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'agent', permissions: ['generate', 'read'] }),
  });
  expect(created.status).toBe(201);
  agent = (await created.json()) as { id: string; key: string };
  // A first build of dist/ takes a minute on a busy 2-core machine.
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

describe('MCP set-up from docs/mcp.md, from any folder', () => {
  it('configures clients with the imagegate command and absolute paths, not npx', () => {
    const entry = documentedConfig();
    expect(entry).toMatchObject({ command: 'imagegate', args: ['mcp'] });
    expect(Object.keys(entry.env).sort()).toEqual(['DATA_DIR', 'IMAGEGATE_API_KEY']);
    expect(path.isAbsolute(entry.env.DATA_DIR ?? '')).toBe(true);
    expect(mcpPage()).not.toMatch(/"command":\s*"npx"/);
  });

  it("serves tools over stdio from a temporary folder, on the server's data", async () => {
    const entry = documentedConfig();
    const cwd = tempDataDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...entry.args],
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', IMAGEGATE_API_KEY: agent.key, DATA_DIR: dataDir },
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const client = new Client({ name: 'imagegate-docs-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['generate_image', 'list_models', 'list_images']));
      const models = (await client.callTool({ name: 'list_models', arguments: {} })) as CallToolResult;
      expect(models.isError, log).toBeFalsy();
      const catalogue = models.structuredContent as { default_model: string; models: { id: string; available: boolean }[] };
      expect(catalogue.models).toContainEqual(expect.objectContaining({ id: 'local/procedural', available: true }));

      // Drawn by the built CPU worker, stored where the server looks: the server lists it.
      const made = (await client.callTool({
        name: 'generate_image',
        arguments: { prompt: 'a harbour in fog', model: 'local/procedural', width: 96, height: 64 },
      })) as CallToolResult;
      expect(made.isError, `${JSON.stringify(made.content).slice(0, 500)}\n${log}`).toBeFalsy();
      const image = made.structuredContent as { id: string };
      const listed = await fetch(`${server.url}/api/images`, { headers: { Authorization: `Bearer ${agent.key}` } });
      expect(((await listed.json()) as { images: { id: string }[] }).images.map((i) => i.id)).toContain(image.id);
    } finally {
      await client.close();
    }
    expect(fs.existsSync(path.join(cwd, 'data')), 'the MCP server made a data folder where it was started').toBe(false);
  }, 60_000);

  it("lists keys from a temporary folder through the absolute bin path, on the server's DATA_DIR", async () => {
    const cwd = tempDataDir();
    const { stdout, stderr } = await run(process.execPath, [BIN, 'keys', 'list'], { cwd, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir } });
    expect(stdout).toContain('key_admin_env');
    expect(stdout).toContain(agent.id);
    expect(stdout).not.toContain(agent.key);
    expect(stderr.trim()).toBe(`imagegate: using database ${path.join(dataDir, 'imagegate.sqlite')}`);
  }, 30_000);

  it('warns, from a folder that is not the clone, when DATA_DIR is left at ./data', async () => {
    const cwd = tempDataDir();
    const { stderr } = await run(process.execPath, [BIN, 'keys', 'list'], { cwd, env: { PATH: process.env.PATH ?? '' } });
    expect(stderr).toContain('did not exist and was just created empty; set DATA_DIR to the server');
  }, 30_000);
});

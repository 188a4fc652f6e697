import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { modelsCommand } from './models.js';

function run(env: Record<string, string>, argv: string[], now = new Date('2026-11-20T10:00:00Z')) {
  const out: string[] = [];
  const err: string[] = [];
  const code = modelsCommand(loadConfig(env), argv, { out: (text) => out.push(text), err: (text) => err.push(text) }, { now: () => now });
  return { code, out, err };
}

describe('imagegate models', () => {
  it('lists only what this environment can run, with default size and cost', () => {
    const { code, out } = run({ FAL_KEY: 'k' }, []);
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^MODEL\s+DEFAULT SIZE\s+COST$/);
    expect(out.slice(1).map((line) => line.split(/\s+/))).toEqual([
      ['local/procedural', '512x512', '$0'],
      ['fal/fal-ai/flux/schnell', '1024x768', '$0.003'],
      ['fal/fal-ai/flux-2-pro', '1024x1024', '$0.03'],
      ['fal/fal-ai/flux-pro/v1.1', '1024x1024', '$0.04'],
      ['fal/fal-ai/flux-2/edit', '1024x1024', '$0.012'],
      ['fal/fal-ai/flux-2-pro/edit', '1024x1024', '$0.03'],
      ['fal/fal-ai/flux-pro/kontext', '1024x1024', '$0.04'],
    ]);
  });

  it('with --all, also lists unconfigured models and the settings that enable them', () => {
    const { out } = run({}, ['--all']);
    expect(out).toContainEqual(expect.stringMatching(/^stability\/core\s+1024x1024\s+\$0\.03\s+no: set STABILITY_API_KEY to enable provider stability$/));
    expect(out).toContainEqual(expect.stringMatching(/^local\/procedural\s+512x512\s+\$0\s+yes$/));
  });

  it('leaves out models their provider shut down, and notes a deprecated one with its replacement', () => {
    const { out } = run({ OPENAI_API_KEY: 'sk' }, []);
    const ids = out.slice(1).map((line) => line.split(/\s+/)[0]);
    expect(ids).toEqual(['local/procedural', 'openai/gpt-image-2', 'openai/gpt-image-2-2026-04-21', 'openai/gpt-image-1.5']);
    expect(out).toContainEqual(
      expect.stringMatching(
        /^openai\/gpt-image-1\.5\s+1024x1024\s+\$0\.034\s+\(openai\/gpt-image-1\.5 is deprecated since 2026-06-02 and shuts down on 2026-12-01; use openai\/gpt-image-2 instead\)$/,
      ),
    );
  });

  it('refuses an unknown argument with the usage', () => {
    const { code, err } = run({}, ['--json']);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('unknown argument "--json"');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { inProcessOnly } from '../../../src/test-support/in-process-only.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

describe('unexpected failures', () => {
  inProcessOnly.it('answer 500 without internals when a record can never be written, after the job ran again', async () => {
    const failing = await createHarness({ jobRetry: { attempts: 2, backoffMs: 10 } });
    // The image's unit of work (the image with its charge) is what fails to commit, every time.
    failing.deps.db.generations.succeed = async () => Promise.reject(new Error('SQLITE_FULL: disk /var/secret/path is full'));
    const pending = failing.call('POST', '/api/generate', { prompt: 'a cat', model: 'local/procedural', width: 64, height: 64 });
    // The retry comes due in the queue's (test) clock time.
    const ticking = setInterval(() => failing.clock.advance(100), 20);
    const res = await pending.finally(() => clearInterval(ticking));
    expect(res.status).toBe(500);
    const body = await json(res);
    expect(body).toEqual({
      error: 'Image generation failed',
      details: { message: 'the generation failed on an internal error (the server log has the details)' },
      code: 'GENERATION_FAILED',
    });
    expect(JSON.stringify(body)).not.toContain('secret');
    expect((await json<{ images: unknown[] }>(await failing.call('GET', '/api/images'))).images).toEqual([]);
    await failing.close();
  });

  inProcessOnly.it('answer a provider that returns something that is not an image as a failed generation', async () => {
    const garbage = await createHarness({
      providers: { local: { id: 'local', generate: async () => ({ bytes: new TextEncoder().encode('<html>oops</html>'), contentType: 'text/html' }) } },
    });
    const res = await garbage.call('POST', '/api/generate', { prompt: 'a cat', model: 'local/procedural' });
    expect(res.status).toBe(500);
    expect((await json(res)).error).toBe('Image generation failed');
    expect(await garbage.blobs.keys()).toEqual([]);
    await garbage.close();
  });
});

describe('public files', () => {
  it.each(['/files/generated/../../imagegate.sqlite', '/files/..%2F..%2Fimagegate.sqlite', '/files/generated/%2e%2e/x.png', '/files/'])(
    'never leave the blob root (%s)',
    async (path) => {
      const res = await h.app.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    },
  );
});

import { afterEach, describe, expect, it } from 'vitest';
import { createComfyUiProvider } from '../../../src/adapters/providers/comfyui/comfyui-provider.js';
import { BUNDLED_WORKFLOWS, loadComfyWorkflows } from '../../../src/adapters/providers/comfyui/workflows.js';
import { createFalProvider } from '../../../src/adapters/providers/fal/fal-provider.js';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { createReplicateProvider } from '../../../src/adapters/providers/replicate/replicate-provider.js';
import { falModels } from '../../../src/adapters/providers/fal/fal-models.js';
import { replicateModels } from '../../../src/adapters/providers/replicate/replicate-models.js';
import type { AcceptedJob, CallJournal, ProviderRequest } from '../../../src/ports/image-provider.js';
import { parametersFrom } from '../../../src/providers.js';
import { startComfyUiFake } from '../../../src/adapters/providers/comfyui/comfyui.fake.js';
import { startFalFake } from '../../../src/adapters/providers/fal/fal.fake.js';
import { startOpenAiFake } from '../../../src/adapters/providers/openai/openai.fake.js';
import { startReplicateFake } from '../../../src/adapters/providers/replicate/replicate.fake.js';
import { sendBytes, sendJson, type LoopbackServer } from '../../../src/test-support/loopback-server.js';

/*
 * The domain keeps a call's journal in the database through property setters, and hands it back when a crashed
 * batch item is resumed. So an adapter assigns `journal.job` and `journal.output` as whole objects as soon as it
 * knows them (a field changed inside one would never be saved: this journal freezes what it stores), and an adapter
 * handed a journal with a job follows that job and never creates another.
 */

/** A journal persisted through setters, noting each write with the number of requests the fake had seen by then. */
function persistedJournal(server: LoopbackServer, initial: CallJournal = {}) {
  let job = initial.job;
  let output = initial.output;
  const writes: string[] = [];
  const journal: CallJournal = {
    get job() {
      return job;
    },
    set job(value: AcceptedJob | undefined) {
      job = value === undefined ? undefined : Object.freeze({ ...value, ...(value.urls === undefined ? {} : { urls: Object.freeze({ ...value.urls }) }) });
      writes.push(`job ${value?.pending === true ? 'pending ' : ''}after ${server.requests.length}`);
    },
    get output() {
      return output;
    },
    set output(value: { url: string; seed?: number } | undefined) {
      output = value === undefined ? undefined : Object.freeze({ ...value });
      writes.push(`output after ${server.requests.length}`);
    },
  };
  return { journal, writes };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const flux = (providerModel: string): ProviderRequest => ({ providerModel, prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42 });

describe('Replicate and the journal', () => {
  it('stores the prediction as soon as the create answers, and the output as soon as it succeeded', async () => {
    const fake = await startReplicateFake();
    closers.push(fake.close);
    const { journal, writes } = persistedJournal(fake.server);
    await createReplicateProvider({ apiToken: 'r8', baseUrl: fake.baseUrl, pollIntervalMs: 5 }, parametersFrom(replicateModels)).generate(
      flux('black-forest-labs/flux-schnell'),
      { journal },
    );
    expect(writes).toEqual(['job after 1', 'output after 2']);
    expect(journal.job?.id).toBe('pred1');
  });

  it('follows the prediction of a journal it is handed, creating none', async () => {
    const fake = await startReplicateFake();
    closers.push(fake.close);
    const { journal } = persistedJournal(fake.server, { job: { id: 'pred7' } });
    await createReplicateProvider({ apiToken: 'r8', baseUrl: fake.baseUrl, pollIntervalMs: 5 }, parametersFrom(replicateModels)).generate(
      flux('black-forest-labs/flux-schnell'),
      { journal },
    );
    expect(fake.creations()).toBe(0);
    expect(fake.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/predictions/pred7', expect.stringMatching(/^GET \/files\/pred7\//)]);
  });
});

describe('fal and the journal', () => {
  it('stores the queued request as soon as fal accepts it, follows a handed-back one without submitting again', async () => {
    const fake = await startFalFake();
    closers.push(fake.close);
    const fal = createFalProvider({ apiKey: 'k', baseUrl: fake.baseUrl, pollIntervalMs: 5 }, parametersFrom(falModels));
    const first = persistedJournal(fake.server);
    await fal.generate(flux('fal-ai/flux/schnell'), { journal: first.journal });
    expect(first.writes).toEqual(['job after 1', 'output after 4']);
    const job = first.journal.job;
    if (job === undefined) throw new Error('no job stored');
    const resumed = persistedJournal(fake.server, { job });
    await fal.generate(flux('fal-ai/flux/schnell'), { journal: resumed.journal });
    expect(fake.creations()).toBe(1);
  });
});

describe('ComfyUI and the journal', () => {
  it('stores the prompt id before submitting it, then as accepted; a handed-back prompt is not queued again', async () => {
    const fake = await startComfyUiFake();
    closers.push(fake.close);
    const comfy = createComfyUiProvider({ baseUrl: fake.baseUrl, workflows: loadComfyWorkflows(BUNDLED_WORKFLOWS), pollIntervalMs: 5 });
    const first = persistedJournal(fake.server);
    await comfy.generate(flux('sdxl-base'), { journal: first.journal });
    expect(first.writes.slice(0, 2)).toEqual(['job pending after 0', 'job after 1']);
    const job = first.journal.job;
    if (job === undefined) throw new Error('no job stored');
    const resumed = persistedJournal(fake.server, { job });
    await comfy.generate(flux('sdxl-base'), { journal: resumed.journal });
    expect(fake.creations()).toBe(1);
  });
});

describe('OpenAI and the journal', () => {
  it('stores an image answered as a URL before downloading it, so a retry downloads rather than pays again', async () => {
    const fake = await startOpenAiFake();
    closers.push(fake.close);
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    fake.server.respondWith((sent, response) =>
      sent.path.startsWith('/files/')
        ? sendBytes(response, 200, 'image/png', png)
        : sendJson(response, 200, { created: 1, data: [{ url: `${fake.baseUrl}/files/out.png` }] }),
    );
    const { journal, writes } = persistedJournal(fake.server);
    await createOpenAiProvider({ apiKey: 'sk', baseUrl: fake.baseUrl }).generate(flux('gpt-image-2'), { journal });
    expect(writes).toEqual(['output after 1']);
  });
});

import { describe, expect, it } from 'vitest';
import { createReplicateProvider } from '../../../src/adapters/providers/replicate/replicate-provider.js';
import { withResilience } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { replicateModels } from '../../../src/adapters/providers/replicate/replicate-models.js';
import { parametersFrom } from '../../../src/providers.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';
import { startReplicateFake } from '../../../src/adapters/providers/replicate/replicate.fake.js';

/*
 * Issue 38: a provider's progress reaches whoever follows the generation. The real Replicate adapter, behind the
 * resilience layer as the server runs it, polls a loopback Replicate whose prediction logs its denoising steps as
 * cog-flux does; the generation runs as its queue job; the caller follows it on its event stream and its resource.
 */
const closing = closeAfterEach();
const BODY = { prompt: 'a lighthouse in a storm', model: 'replicate/black-forest-labs/flux-schnell', width: 256, height: 256 };

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads an event stream as it comes, event by event. */
function eventReader(body: ReadableStream<Uint8Array> | null): { until: (done: (event: SseEvent) => boolean) => Promise<SseEvent[]> } {
  if (body === null) throw new Error('the stream has no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pending: SseEvent[] = [];
  const next = async (): Promise<SseEvent | undefined> => {
    for (;;) {
      const at = buffer.indexOf('\n\n');
      if (at >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined) return { event, data: JSON.parse(data) as Record<string, unknown> };
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    async until(done) {
      const seen: SseEvent[] = [];
      for (let event = pending.shift() ?? (await next()); event !== undefined; event = await next()) {
        seen.push(event);
        if (done(event)) return seen;
      }
      return seen;
    },
  };
}

async function start(): Promise<{ h: Harness; release: () => void }> {
  let holding = true;
  // The prediction runs 4 steps, and stays at step 2 until released.
  const fake = await startReplicateFake({ answer: 'png', run: { steps: 4, held: (step) => holding && step >= 2 } });
  closing({ close: () => fake.close() });
  const adapter = createReplicateProvider({ apiToken: 'r8_test', baseUrl: fake.baseUrl, pollIntervalMs: 20 }, parametersFrom(replicateModels));
  const provider = withResilience(adapter, {
    timeoutMs: 60_000,
    retries: 0,
    baseDelayMs: 1,
    maxDelayMs: 1,
    maxConcurrent: 4,
    breakerThreshold: 5,
    breakerCooldownMs: 1_000,
  });
  const h = closing(await createHarness({ providers: { replicate: provider } }));
  return { h, release: () => (holding = false) };
}

describe('generation.progress', () => {
  it("streams the provider's progress between started and completed, and GET /api/generations/{id} shows it", async () => {
    const { h, release } = await start();
    const accepted = await json<{ id: string }>(await h.call('POST', '/api/generate', BODY, { Prefer: 'respond-async' }));
    const stream = await h.app.request(`/api/generations/${accepted.id}/events`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
    expect(stream.status).toBe(200);
    const events = eventReader(stream.body);

    // Held at step 2 of 4: the progress reaches the stream, and (written at most once a second) the generation.
    const before = await events.until((event) => event.event === 'generation.progress' && event.data.progress === 0.5);
    expect(before.at(-1)?.data).toEqual({ progress: 0.5, message: 'step 2/4' });
    const running = await eventually(async () => {
      const now = await json<{ status: string; progress?: number }>(await h.call('GET', `/api/generations/${accepted.id}`));
      return now.progress === 0.5 ? now : undefined;
    });
    expect(running.status).toBe('running');

    release();
    const after = await events.until((event) => event.event === 'generation.completed');
    const all = [...before, ...after];
    expect(all[0]?.event).toMatch(/^generation\.(queued|started)$/);
    expect(all.map((event) => event.event).filter((event) => event !== 'generation.progress')).toEqual(
      all[0]?.event === 'generation.queued'
        ? ['generation.queued', 'generation.started', 'generation.completed']
        : ['generation.started', 'generation.completed'],
    );
    const fractions = all.filter((event) => event.event === 'generation.progress').map((event) => Number(event.data.progress));
    expect(fractions.every((fraction) => fraction >= 0 && fraction <= 1)).toBe(true);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));

    expect(await json(await h.call('GET', `/api/generations/${accepted.id}`))).toMatchObject({ status: 'succeeded', progress: 1 });
  });
});

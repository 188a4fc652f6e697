import { describe, expect, it } from 'vitest';
import type { ImageProvider, ProviderImage, ProviderRequest } from '../../ports/image-provider.js';
import { createProviderSlots, releasingOnAnswer, type ReleaseSlot } from './provider-slots.js';

/** Lets every promise callback that is ready run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('provider slots', () => {
  it('lets at most their size in at once and serves the waiters in arrival order', async () => {
    const slots = createProviderSlots(2);
    const order: string[] = [];
    const take = (name: string) => slots.acquire().then((release) => (order.push(name), release));
    const [a, b] = await Promise.all([take('a'), take('b')]);
    const c = take('c');
    const d = take('d');
    await settle();
    expect(order).toEqual(['a', 'b']);
    expect(slots.taken).toBe(2);

    a?.();
    await settle();
    expect(order).toEqual(['a', 'b', 'c']);
    b?.();
    await settle();
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    (await c)?.();
    (await d)?.();
    expect(slots.taken).toBe(0);
  });

  it('frees a slot once however often it is given back', async () => {
    const slots = createProviderSlots(1);
    const first = await slots.acquire();
    const second = slots.acquire();
    const third = slots.acquire();
    first?.();
    first?.();
    await settle();
    let thirdIn = false;
    void third.then(() => (thirdIn = true));
    await settle();
    expect(thirdIn).toBe(false);
    (await second)?.();
    await settle();
    expect(thirdIn).toBe(true);
    expect(slots.taken).toBe(1);
  });

  it('hands a freed slot to the one waiting, never to a newcomer', async () => {
    const slots = createProviderSlots(1);
    const held = await slots.acquire();
    const waiter = slots.acquire();
    held?.();
    // Asked for after the release, before the waiter ran: it queues behind it.
    const newcomer = slots.acquire();
    const got: string[] = [];
    void waiter.then(() => got.push('waiter'));
    void newcomer.then(() => got.push('newcomer'));
    await settle();
    expect(got).toEqual(['waiter']);
    (await waiter)?.();
    await settle();
    expect(got).toEqual(['waiter', 'newcomer']);
  });

  it('gives up a place in line when told to, and then at once, leaving the slot to the next', async () => {
    const slots = createProviderSlots(1);
    const held = await slots.acquire();
    const stopping = new AbortController();
    const leaving = slots.acquire(stopping.signal);
    const staying = slots.acquire();
    stopping.abort();
    expect(await leaving).toBeUndefined();
    expect(await slots.acquire(stopping.signal)).toBeUndefined();
    held?.();
    const next = await staying;
    expect(next).toBeTypeOf('function');
    expect(slots.taken).toBe(1);
  });

  it('refuses a size that is not a whole number of 1 or more', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => createProviderSlots(size)).toThrow(/whole number/);
  });
});

describe('releasingOnAnswer', () => {
  const image: ProviderImage = { bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png' };
  const request: ProviderRequest = { providerModel: 'm', prompt: 'a lighthouse', width: 64, height: 64, seed: 1 };
  const counting = (): { release: ReleaseSlot; count: () => number } => {
    let released = 0;
    return { release: () => void (released += 1), count: () => released };
  };

  it('gives the slot back when the provider answers, before the caller goes on, and when it fails', async () => {
    const answering: ImageProvider = { id: 'a', generate: async () => image };
    const failing: ImageProvider = { id: 'b', generate: async () => Promise.reject(new Error('refused')) };
    const ok = counting();
    const wrapped = releasingOnAnswer(new Map([['a', answering]]), ok.release);
    const answer = await wrapped.get('a')?.generate(request);
    expect(answer).toBe(image);
    expect(ok.count()).toBe(1);

    const ko = counting();
    await expect(
      releasingOnAnswer(new Map([['b', failing]]), ko.release)
        .get('b')
        ?.generate(request),
    ).rejects.toThrow('refused');
    expect(ko.count()).toBe(1);
  });

  it('lets the prompt waiting for the slot send its call before the answered one goes on to store its image', async () => {
    const slots = createProviderSlots(1);
    const events: string[] = [];
    const provider = (name: string): ImageProvider => ({ id: name, generate: async () => (events.push(`${name} called`), image) });
    // A prompt: its slot, then a few database steps (promise callbacks), then its call, then storing the answer.
    const prompt = async (name: string) => {
      const release = await slots.acquire();
      if (release === undefined) throw new Error('no slot');
      for (let step = 0; step < 5; step += 1) await Promise.resolve();
      await releasingOnAnswer(new Map([[name, provider(name)]]), release)
        .get(name)
        ?.generate(request);
      events.push(`${name} stores its image`);
    };
    await Promise.all([prompt('first'), prompt('second')]);
    expect(events).toEqual(['first called', 'second called', 'first stores its image', 'second stores its image']);
  });

  it('keeps each provider’s id, cancel and check, called on the provider itself', async () => {
    const cancelled: unknown[] = [];
    const provider = {
      id: 'stateful',
      jobs: 'kept',
      generate: async () => image,
      cancel(this: { jobs: string }, journal: unknown) {
        cancelled.push([this.jobs, journal]);
      },
      async check(this: { jobs: string }) {
        return { ok: true, endpoint: 'GET /v1/account', detail: this.jobs };
      },
    };
    const wrapped = releasingOnAnswer(new Map([['stateful', provider as ImageProvider]]), () => undefined).get('stateful');
    expect(wrapped?.id).toBe('stateful');
    wrapped?.cancel?.({ job: { id: 'j1' } });
    expect(cancelled).toEqual([['kept', { job: { id: 'j1' } }]]);
    expect(await wrapped?.check?.()).toEqual({ ok: true, endpoint: 'GET /v1/account', detail: 'kept' });
  });
});

import { describe, expect, it } from 'vitest';
import type { GenerationEvent, GenerationEvents } from '../../src/ports/generation-events.js';
import { until } from './wait.js';

export interface GenerationEventsFixture {
  events: GenerationEvents;
  /** Another instance on the same infrastructure, as in a second process or isolate; for adapters that share. */
  peer?(): Promise<GenerationEvents>;
}

const event = (type: GenerationEvent['type'], generationId: string, data: Record<string, unknown> = {}): GenerationEvent => ({
  type,
  generation_id: generationId,
  data,
});

/** Ids unique per run: Redis keys and Durable Objects outlive a test. */
let counter = 0;
const freshId = () => `gen_contract_${Date.now().toString(36)}_${(counter += 1)}`;

/**
 * One behaviour suite for every GenerationEvents adapter. With `shared`, the adapter promises that what one instance
 * publishes reaches watchers on another (API process and worker apart, or two isolates), and the fixture gives a `peer`.
 */
export function describeGenerationEventsContract(name: string, open: () => Promise<GenerationEventsFixture>, options: { shared?: boolean } = {}): void {
  describe(`GenerationEvents contract: ${name}`, () => {
    it("delivers a generation's events to its watchers in the order published, and none of another generation's", async () => {
      const { events } = await open();
      const [id, other] = [freshId(), freshId()];
      const first: string[] = [];
      const second: string[] = [];
      const stopFirst = await events.subscribe(id, (e) => first.push(`${e.type}:${String(e.data.progress ?? '')}`));
      const stopSecond = await events.subscribe(id, (e) => second.push(e.type));
      await events.publish(event('generation.started', id));
      await events.publish(event('generation.progress', other, { progress: 0.9 }));
      await events.publish(event('generation.progress', id, { progress: 0.5 }));
      await events.publish(event('generation.completed', id));
      await until(() => first.length === 3 && second.length === 3);
      expect(first).toEqual(['generation.started:', 'generation.progress:0.5', 'generation.completed:']);
      expect(second).toEqual(['generation.started', 'generation.progress', 'generation.completed']);
      stopFirst();
      stopSecond();
    });

    it('delivers nothing to a watcher once it unsubscribed, and still to the others', async () => {
      const { events } = await open();
      const id = freshId();
      const left: string[] = [];
      const stayed: string[] = [];
      const leave = await events.subscribe(id, (e) => left.push(e.type));
      const stop = await events.subscribe(id, (e) => stayed.push(e.type));
      await events.publish(event('generation.started', id));
      await until(() => left.length === 1 && stayed.length === 1);
      leave();
      await events.publish(event('generation.progress', id, { progress: 0.2 }));
      await events.publish(event('generation.completed', id));
      await until(() => stayed.length === 3);
      expect(left).toEqual(['generation.started']);
      stop();
    });

    it("keeps a running generation's latest partial image for a watcher who comes later, and forgets it at the end", async () => {
      const { events } = await open();
      const id = freshId();
      expect(await events.latestPartial(id)).toBeUndefined();
      await events.publish(event('generation.partial_image', id, { index: 0, b64_json: 'AAAA' }));
      await events.publish(event('generation.partial_image', id, { index: 1, b64_json: 'BBBB' }));
      await events.publish(event('generation.progress', id, { progress: 0.7 }));
      expect(await events.latestPartial(id)).toEqual(event('generation.partial_image', id, { index: 1, b64_json: 'BBBB' }));
      expect(await events.latestPartial(freshId())).toBeUndefined();
      await events.publish(event('generation.completed', id));
      expect(await events.latestPartial(id)).toBeUndefined();
    });

    it('does not throw to a listener that throws: the other watchers still hear the event', async () => {
      const { events } = await open();
      const id = freshId();
      const heard: string[] = [];
      const stopBad = await events.subscribe(id, () => {
        throw new Error('a broken watcher');
      });
      const stop = await events.subscribe(id, (e) => heard.push(e.type));
      await events.publish(event('generation.started', id));
      await until(() => heard.length === 1);
      stopBad();
      stop();
    });

    if (options.shared === true) {
      it('carries events and the latest partial from one instance to watchers on another', async () => {
        const { events, peer } = await open();
        if (peer === undefined) throw new Error("a shared adapter's fixture must give a peer");
        const other = await peer();
        const id = freshId();
        const heard: GenerationEvent[] = [];
        const stop = await other.subscribe(id, (e) => heard.push(e));
        await events.publish(event('generation.partial_image', id, { index: 0, b64_json: 'CCCC' }));
        await events.publish(event('generation.cancel_requested', id));
        await until(() => heard.length === 2);
        expect(heard.map((e) => e.type)).toEqual(['generation.partial_image', 'generation.cancel_requested']);
        expect(heard[0]?.data).toEqual({ index: 0, b64_json: 'CCCC' });
        expect(await other.latestPartial(id)).toMatchObject({ data: { index: 0, b64_json: 'CCCC' } });
        stop();
      });
    }
  });
}

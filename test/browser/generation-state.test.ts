import { describe, expect, it } from 'vitest';
import type { Generation } from '../../web/src/api/types.js';
import { applyEvent, generationsToFollow, imageDataUrl, isFinal, queueText, withSnapshot, type GenerationView } from '../../web/src/lib/generation-state.js';
import { matchPage } from '../../web/src/lib/match-page.js';
import { sectionOf } from '../../web/src/lib/permissions.js';
import { sseParser, type SseMessage } from '../../web/src/lib/sse.js';
import { APP_PAGES } from '../../src/http/routes/system/app-pages.js';

const parse = (chunks: string[]): SseMessage[] => {
  const messages: SseMessage[] = [];
  const feed = sseParser((message) => messages.push(message));
  for (const chunk of chunks) feed(chunk);
  return messages;
};

describe('web app: reading Server-Sent Events', () => {
  it('reads event, data and id, a message per blank line', () => {
    expect(parse(['event: generation.queued\ndata: {"id":"gen_1"}\nid: 1\n\nevent: generation.progress\ndata: {"progress":0.5}\nid: 2\n\n'])).toEqual([
      { event: 'generation.queued', data: '{"id":"gen_1"}', id: '1' },
      { event: 'generation.progress', data: '{"progress":0.5}', id: '2' },
    ]);
  });

  it('puts together messages cut anywhere, CRLF split between pieces included', () => {
    const whole = 'event: generation.partial_image\r\ndata: {"index":0,\r\ndata: "b64_json":"iVBOR"}\r\n\r\n';
    for (let cut = 1; cut < whole.length; cut += 1) {
      expect(parse([whole.slice(0, cut), whole.slice(cut)])).toEqual([
        { event: 'generation.partial_image', data: '{"index":0,\n"b64_json":"iVBOR"}', id: undefined },
      ]);
    }
  });

  it('leaves out comments and messages without data, and names an unnamed one "message"', () => {
    expect(parse([': keep-alive\n\nevent: nothing\n\ndata:x\n\n'])).toEqual([{ event: 'message', data: 'x', id: undefined }]);
  });

  it('dispatches nothing until the blank line that ends a message arrives', () => {
    expect(parse(['event: generation.started\ndata: {}\n'])).toEqual([]);
  });
});

const generation = (patch: Partial<Generation> = {}): Generation => ({
  id: 'gen_1',
  status: 'queued',
  model: 'local/procedural',
  prompt: 'a kite',
  created_at: '2026-11-20T10:00:00.000Z',
  started_at: null,
  finished_at: null,
  image_id: 'img_1',
  queue_position: 2,
  ...patch,
});

describe('web app: a followed generation', () => {
  it('starts from the first event, which carries the whole generation', () => {
    expect(applyEvent(undefined, 'generation.queued', generation())).toEqual({ generation: generation(), partial: undefined });
  });

  it('runs on a bare started event, without its queue position', () => {
    const view = applyEvent({ generation: generation(), partial: undefined }, 'generation.started', {});
    expect(view?.generation.status).toBe('running');
    expect(view?.generation.queue_position).toBeUndefined();
    expect(view?.generation.started_at).not.toBeNull();
  });

  it('takes progress between 0 and 1, never backwards, and leaves out anything else', () => {
    let view: GenerationView | undefined = { generation: generation({ status: 'running', queue_position: undefined }), partial: undefined };
    view = applyEvent(view, 'generation.progress', { progress: 0.4 });
    expect(view?.generation.progress).toBe(0.4);
    view = applyEvent(view, 'generation.progress', { progress: 0.2 });
    expect(view?.generation.progress).toBe(0.4);
    view = applyEvent(view, 'generation.progress', { progress: 7 });
    expect(view?.generation.progress).toBe(0.4);
    // A read of the row that says less than the events already did does not take it back.
    view = withSnapshot(view, generation({ status: 'running', queue_position: undefined, progress: 0.1 }));
    expect(view.generation.progress).toBe(0.4);
  });

  it('shows the latest partial image as a data URL of its own type, and drops it once the generation ends', () => {
    let view = applyEvent({ generation: generation({ status: 'running' }), partial: undefined }, 'generation.partial_image', {
      index: 1,
      b64_json: '/9j/4AAQ',
    });
    expect(view?.partial).toEqual({ index: 1, src: 'data:image/jpeg;base64,/9j/4AAQ' });
    view = applyEvent(view, 'generation.completed', generation({ status: 'succeeded', queue_position: undefined }));
    expect(view?.partial).toBeUndefined();
    expect(view !== undefined && isFinal(view.generation.status)).toBe(true);
    expect([imageDataUrl('iVBORw0'), imageDataUrl('UklGRg')]).toEqual(['data:image/png;base64,iVBORw0', 'data:image/webp;base64,UklGRg']);
  });

  it('never goes back to queued on a read answered before the job started', () => {
    const running = applyEvent({ generation: generation(), partial: undefined }, 'generation.started', {});
    expect(withSnapshot(running, generation()).generation.status).toBe('running');
  });

  it('says where it is in the queue in words', () => {
    expect([queueText(undefined), queueText(0), queueText(1), queueText(3)]).toEqual([
      'Queued',
      'Queued: next to start',
      'Queued: 1 generation starts before this one',
      'Queued: 3 generations start before this one',
    ]);
  });
});

describe('web app: the address of a generation', () => {
  it('is a page of its own, under Generate in the menu', () => {
    expect(matchPage(APP_PAGES, '/generations/gen_1')).toEqual({ page: '/generations/:id', params: { id: 'gen_1' } });
    expect([sectionOf('/generations/gen_1')?.href, sectionOf('/')?.href, sectionOf('/batches/b_1')?.href, sectionOf('/constructor')]).toEqual([
      '/generate',
      '/generate',
      '/batches',
      undefined,
    ]);
  });
});

describe("web app: a batch's prompts followed live", () => {
  const item = (index: number, status: 'pending' | 'running' | 'succeeded', generationId?: string) => ({
    index,
    prompt: `prompt ${index}`,
    status,
    image_id: `img_${index}`,
    image: null,
    error: null,
    ...(generationId === undefined ? {} : { generation_id: generationId }),
  });

  it('follows the open prompts that name their generation, running ones first', () => {
    expect(generationsToFollow([item(0, 'pending', 'gen_a'), item(1, 'succeeded', 'gen_b'), item(2, 'running', 'gen_c'), item(3, 'running')])).toEqual([
      'gen_c',
      'gen_a',
    ]);
  });

  it('follows none when the batch does not name generations (its detail is polled instead)', () => {
    expect(generationsToFollow([item(0, 'running'), item(1, 'pending')])).toEqual([]);
  });
});

/**
 * The floor for scenario 1: Hono on @hono/node-server answering GET /api/images with a page of the same shape
 * and size as imagegate's, with no auth, rate limit or database. Run as its own process (PORT), like the server.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const image = (i: number) => ({
  id: `img_01m852kcdw2raqg7rh5kcq${String(i).padStart(4, '0')}`,
  prompt: `a blue whale in spring, seeded #${i}`,
  model: '@cf/bytedance/stable-diffusion-xl-lightning',
  r2_key: 'generated/img_seed_placeholder.png',
  r2_url: 'http://localhost:8787/files/generated/img_seed_placeholder.png',
  width: 1024,
  height: 1024,
  created_at: new Date(Date.UTC(2026, 10, 23) - i * 31_536_000).toISOString(),
  user_id: 'admin',
  cost: 0,
  is_deleted: false,
  template_id: null,
  parameters: { width: 1024, height: 1024, seed: i },
  metadata: { seeded: true },
});

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
// Built per request, as the real route serialises fresh rows each time; a cached string would flatter the floor.
app.get('/api/images', (c) => {
  const limit = Math.min(100, Number(c.req.query('limit') ?? '20'));
  const images = Array.from({ length: limit }, (_, i) => image(1000 - i));
  const last = images.at(-1);
  const next = last === undefined ? null : Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
  return c.json({ images, pagination: { limit, offset: 0, total: 1000, has_more: true, next_cursor: next } });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? '8788'), hostname: '127.0.0.1' });

/**
 * The floor for scenario 1: Hono on @hono/node-server answering GET /api/images with exactly the bytes imagegate
 * answered for its own first page (BENCH_PAGE_FILE, written by the scenario), with no auth, rate limit or
 * database. The page is parsed once and serialised per request with `c.json`, as a route building its answer
 * would: a cached string would flatter the floor. Run as its own process (PORT), like the server.
 */
import fs from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const pageFile = process.env.BENCH_PAGE_FILE;
if (pageFile === undefined || pageFile === '') throw new Error('BENCH_PAGE_FILE must name the file holding imagegate’s first page');
const page: unknown = JSON.parse(fs.readFileSync(pageFile, 'utf8'));

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
app.get('/api/images', (c) => c.json(page as Record<string, unknown>));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? '8788'), hostname: '127.0.0.1' });

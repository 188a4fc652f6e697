/**
 * The web app's pages, as Hono path patterns. The server answers each with the app's `index.html` (so a
 * reload or a shared link works), and the app's router maps the same list to its pages: one list, so
 * neither side can know a page the other does not. Nothing here may start with /api, /docs, /files,
 * /assets, /app, /health or /openapi.json.
 */
export const APP_PAGES = [
  '/',
  '/sign-in',
  '/generate',
  '/generations/:id',
  '/gallery',
  '/gallery/:id',
  '/collections',
  '/collections/:id',
  '/templates',
  '/batches',
  '/batches/:id',
  '/analytics',
  '/keys',
] as const;

export type AppPage = (typeof APP_PAGES)[number];

import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env, MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import type { Permission } from '../domain/keys/principal.js';

/** Declared beside each route in `createRoute`, and published in /openapi.json: any one of these permissions lets a key call it. */
export const PERMISSIONS_EXTENSION = 'x-permissions';
/** Declared beside a route with `idempotent()`: the route honours an `Idempotency-Key` header. */
export const IDEMPOTENT_EXTENSION = 'x-idempotent';

export interface RouteInfo {
  method: string;
  /** Hono's pattern, e.g. `/api/images/:id`. */
  path: string;
  /** The operation declares a request body; an operation without one accepts an empty POST whatever its headers. */
  takesBody: boolean;
  /** Its body is multipart/form-data (files), not JSON. */
  multipart: boolean;
  /** Undefined for routes outside the permission model (`/health`, `/docs`, `/files`). */
  permissions: readonly Permission[] | undefined;
  /** A retry with the same `Idempotency-Key` replays the first answer. */
  idempotent: boolean;
}

export interface RouteTable {
  /** The route a request would reach, by Hono's own matching rules; HEAD is matched as GET. */
  match(method: string, path: string): RouteInfo | undefined;
  /** Methods that have a route at this path, for `405 Allow`; empty when no route has the path. */
  allowedMethods(path: string): string[];
}

/** The table as the app that builds it sees it: it also mounts method-specific middleware. */
export interface AppRouteTable<E extends Env> extends RouteTable {
  /**
   * Mounts middleware for some methods only (`app.on`), which Hono lists among its routes: it is left out of this
   * table, or `POST /api/*` would be a route that declares no permission.
   */
  useFor(methods: string | readonly string[], path: string, handler: MiddlewareHandler<E>): void;
}

interface OpenApiDefinition {
  type: string;
  route?: {
    method: string;
    path: string;
    request?: { body?: { content?: Record<string, unknown> } };
    [PERMISSIONS_EXTENSION]?: readonly Permission[];
    [IDEMPOTENT_EXTENSION]?: boolean;
  };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * What the app's routes declare, looked up per request: one source (the routes themselves) answers
 * "which permission", "does it take a body" and "which methods exist here", so no URL table repeats them.
 * Built on first use, after every route has been registered.
 */
export function createRouteTable<E extends Env>(app: OpenAPIHono<E>): AppRouteTable<E> {
  let router: TrieRouter<RouteInfo> | undefined;
  const middleware = new Set<string>();

  const build = (): TrieRouter<RouteInfo> => {
    const declared = new Map<string, NonNullable<OpenApiDefinition['route']>>();
    for (const definition of app.openAPIRegistry.definitions as readonly OpenApiDefinition[]) {
      if (definition.type !== 'route' || definition.route === undefined) continue;
      declared.set(`${definition.route.method.toUpperCase()} ${toHonoPath(definition.route.path)}`, definition.route);
    }
    const built = new TrieRouter<RouteInfo>();
    const seen = new Set<string>();
    for (const { method, path } of app.routes) {
      const key = `${method} ${path}`;
      if (method === 'ALL' || seen.has(key) || middleware.has(key)) continue;
      seen.add(key);
      const route = declared.get(`${method} ${withoutPatterns(path)}`);
      built.add(method, path, {
        method,
        path,
        takesBody: route?.request?.body !== undefined,
        multipart: route?.request?.body?.content?.['multipart/form-data'] !== undefined,
        permissions: route?.[PERMISSIONS_EXTENSION],
        idempotent: route?.[IDEMPOTENT_EXTENSION] === true,
      });
    }
    return built;
  };

  // Several middlewares ask about the same request in turn (permission, body, metrics): the last answer is kept.
  let last: { method: string; path: string; route: RouteInfo | undefined } | undefined;
  const match = (method: string, path: string): RouteInfo | undefined => {
    if (last !== undefined && last.method === method && last.path === path) return last.route;
    router ??= build();
    const [handlers] = router.match(method === 'HEAD' ? 'GET' : method, path);
    const route = handlers[0]?.[0];
    last = { method, path, route };
    return route;
  };

  return {
    match,
    allowedMethods(path) {
      const allowed = METHODS.filter((method) => match(method, path) !== undefined);
      return allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
    },
    useFor(methods, path, handler) {
      const list = typeof methods === 'string' ? [methods] : methods;
      for (const method of list) middleware.add(`${method} ${path}`);
      app.on([...list], path, handler);
    },
  };
}

/** `/api/images/{id}` (OpenAPI) as Hono writes it: `/api/images/:id`. */
const toHonoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/** `/api/models/:id{.+}` without its pattern, to meet its OpenAPI twin `/api/models/:id`. */
const withoutPatterns = (path: string): string => path.replace(/(:[A-Za-z0-9_]+)\{[^}]*\}/g, '$1');

/** Spread into `createRoute({...})`: the permissions a key needs for this operation (any one of them). */
export const requires = (...permissions: Permission[]): { [PERMISSIONS_EXTENSION]: readonly Permission[] } => ({ [PERMISSIONS_EXTENSION]: permissions });

/** Spread into `createRoute({...})` of an operation that creates something: it honours `Idempotency-Key`. */
export const idempotent = (): { [IDEMPOTENT_EXTENSION]: true } => ({ [IDEMPOTENT_EXTENSION]: true });

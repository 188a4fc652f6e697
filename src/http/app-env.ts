import type { Context } from 'hono';
import type { RequestContext } from '../domain/context.js';
import type { Principal } from '../domain/keys/principal.js';
import type { ReceivedForm } from './multipart/read-form.js';

export type { Permission, Principal } from '../domain/keys/principal.js';

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
    /** Headers every response of the request carries, gathered by middleware (response-headers.ts). */
    responseHeaders?: Record<string, string>;
    /** The response `respondWith` built with those headers already in it. */
    builtResponse?: Response;
    /** A multipart form as read by the body middleware (json-body.ts): its fields and staged files. */
    multipartForm?: ReceivedForm;
  };
}

/** Who asks and which request this is, for a verb. Read with `c.get`: `c.var` copies every variable each time. */
export function requestContext(c: Pick<Context<AppEnv>, 'get'>): RequestContext {
  const principal = c.get('principal');
  const requestId = c.get('requestId');
  const key = principal.key;
  if (key === undefined) return { userId: principal.userId, requestId };
  return { userId: principal.userId, requestId, key: { id: key.id, dailyBudgetUsd: key.dailyBudgetUsd, monthlyBudgetUsd: key.monthlyBudgetUsd } };
}

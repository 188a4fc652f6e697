import type { Context, MiddlewareHandler } from 'hono';
import type { Deps } from '../../domain/context.js';
import { ApiError, invalidParameter } from '../../domain/errors.js';
import type { StoredResponse } from '../../ports/database.js';
import type { AppEnv } from '../app-env.js';
import { CLIENT_CLOSED_REQUEST } from '../errors.js';
import type { RouteTable } from '../route-table.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long an answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A running claim is a lease: it holds this long, and the request renews it every `renewEveryMs` while it runs.
 * A process that crashed stops renewing, so its key is free again within the lease, not after 15 minutes, and
 * `Retry-After` can say when that will be. The margin of two renewals rides out a slow database write.
 */
export const CLAIM_LEASE = { ms: 15_000, renewEveryMs: 5_000 } as const;

export interface ClaimLease {
  ms: number;
  renewEveryMs: number;
}

/** 1 to 255 printable ASCII characters (space to tilde), as Stripe and the IETF draft allow. */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** The headers of an answer worth replaying; rate-limit and request-id headers belong to each request. */
const KEPT_HEADERS = ['content-type', 'deprecation', 'sunset', 'link', 'location'];

export interface IdempotencyOptions {
  routes: RouteTable;
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>;
  /** Defaults to CLAIM_LEASE; tests shorten the renewal. */
  lease?: ClaimLease;
}

/**
 * `Idempotency-Key` on the routes that declare `idempotent()`: the first request's final answer is stored per
 * (user, key) for 24 hours and replayed to a retry with the same method, path and body, without running it
 * again. A different request with the key is a 422, a retry while the first still runs a 409. A 5xx is not
 * stored (as Stripe does): the key is released so a retry can run.
 */
export function idempotency({ routes, deps, lease = CLAIM_LEASE }: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const leaseEnd = () => new Date(deps.clock.now().getTime() + lease.ms).toISOString();
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || routes.match(c.req.method, c.req.path)?.idempotent !== true) return next();
    if (!VALID_KEY.test(key)) {
      throw invalidParameter(
        IDEMPOTENCY_HEADER,
        `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters (a UUID is a good choice); got ${key.length} characters`,
      );
    }
    const userId = c.get('principal').userId;
    const fingerprint = await sha256Hex(`${c.req.method}\n${c.req.path}\n`, await bodyFingerprint(c));
    const now = deps.clock.now();
    const claim = await deps.db.idempotency.claim({
      userId,
      key,
      fingerprint,
      now: now.toISOString(),
      expiresAt: leaseEnd(),
    });

    if (claim.kind === 'existing') {
      const { record } = claim;
      if (record.fingerprint !== fingerprint) {
        throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'Idempotency key reused', {
          message: `this ${IDEMPOTENCY_HEADER} was used for a different request (method, path or body) in the last 24 hours; send a new key for a new request`,
        });
      }
      if (record.response === undefined) {
        // The lease's end: by then the first request has renewed it (still running) or its process is gone and the
        // key is free. Sooner would only find it running again.
        const seconds = Math.max(1, Math.ceil((Date.parse(record.expiresAt) - now.getTime()) / 1000));
        throw new ApiError(
          'IDEMPOTENCY_IN_PROGRESS',
          'Request in progress',
          {
            message: `the first request with this ${IDEMPOTENCY_HEADER} is still running; retry in ${seconds} seconds to get its answer (or to run it, if that request's process has stopped)`,
            retry_after_seconds: seconds,
          },
          { retryAfterSeconds: seconds },
        );
      }
      return replay(record.response);
    }

    let stored = false;
    const renewal = setInterval(() => {
      deps.db.idempotency
        .renew(userId, key, leaseEnd())
        .catch((error: unknown) => deps.logger.warn({ err: error, requestId: c.get('requestId') }, 'could not renew an idempotency claim'));
    }, lease.renewEveryMs);
    try {
      await next();
      // A client that hung up got no answer (its 499 is never sent), so there is none to replay: as after a 5xx,
      // the key is released and its retry runs. An answer made before the hang-up is stored, as any other.
      if (c.res.status < 500 && c.res.status !== CLIENT_CLOSED_REQUEST) {
        await deps.db.idempotency.complete(userId, key, await snapshot(c.res), new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString());
        stored = true;
      }
    } finally {
      clearInterval(renewal);
      if (!stored) {
        await deps.db.idempotency
          .release(userId, key)
          .catch((error: unknown) => deps.logger.error({ err: error, requestId: c.get('requestId') }, 'could not release an idempotency key'));
      }
    }
  };
}

async function snapshot(response: Response): Promise<StoredResponse> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body: await response.clone().text() };
}

function replay(response: StoredResponse): Response {
  const headers = new Headers(response.headers);
  headers.set(REPLAYED_HEADER, 'true');
  return new Response(response.body, { status: response.status, headers });
}

/**
 * What identifies a request's body. JSON: its bytes. Multipart: its parts (names, values, file names, types, sizes
 * and the SHA-256 each file got while it was staged) in order, not its bytes, since every client picks a fresh
 * boundary for each send and a retry would otherwise never match; the files are never read again for it.
 */
async function bodyFingerprint(c: Context<AppEnv>): Promise<Uint8Array> {
  const received = c.get('multipartForm');
  if (received === undefined) return new Uint8Array(await c.req.arrayBuffer());
  const lines = received.entries.map((entry) =>
    'value' in entry
      ? `${JSON.stringify(entry.name)}=${JSON.stringify(entry.value)}\n`
      : `${JSON.stringify(entry.name)}=file ${JSON.stringify(entry.filename)} ${JSON.stringify(entry.contentType)} ${entry.upload.staged.size} ${entry.upload.staged.sha256}\n`,
  );
  return new TextEncoder().encode(lines.join(''));
}

/** WebCrypto, so the same code runs on Node and on Workers. */
async function sha256Hex(head: string, body: Uint8Array): Promise<string> {
  const headBytes = new TextEncoder().encode(head);
  const all = new Uint8Array(headBytes.length + body.length);
  all.set(headBytes);
  all.set(body, headBytes.length);
  const digest = await crypto.subtle.digest('SHA-256', all);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

import { abbreviate, type Resolve } from './json-text.js';
import { ADMIN, ALLOWED_IP, JSON_CT } from './arbitraries.js';
import { encodeForm, Form, formDataOf } from './form.js';
import { MULTIPART_CT } from './form-arbitraries.js';
import { bodyText, describeRequest, pathText, queryText, requestHeaders, viaFormData, type FuzzRequest, type Mode } from './request.js';
import { describeChanges, type World } from './world.js';

export interface Outcome {
  status: number;
  contentType: string | null;
  text: string;
  ms: number;
}

export interface Violation {
  /** Short, stable name of what went wrong, for grouping. */
  kind:
    | 'server error'
    | 'error body is not JSON'
    | 'error body has no string `error`'
    | 'refused request stored data'
    | 'failed request stored data'
    | 'invalid request accepted'
    | 'equivalent spelling refused'
    | 'answer differs from what was stored';
  detail: string;
}

/** Sends `request` to the world's app; the fixtures fill in the ids. */
export async function send(world: World, request: FuzzRequest): Promise<Outcome> {
  const resolve: Resolve = (name) => world.fixtures[name];
  const headers = requestHeaders(request, world.mode, resolve);
  const text = bodyText(request, resolve);
  const init: RequestInit = { method: request.method, headers };
  if (request.body instanceof Form) {
    if (viaFormData(request)) init.body = formDataOf(request.body, world.samples, resolve);
    else {
      const bytes = encodeForm(request.body, world.samples, resolve);
      init.body = bytes;
      headers['Content-Length'] = String(bytes.byteLength);
    }
  } else if (text !== undefined) {
    // Bytes, not a string: a string body would make the Request add `text/plain` on its own.
    const bytes = new TextEncoder().encode(text);
    init.body = bytes;
    headers['Content-Length'] = String(bytes.byteLength);
  }
  const started = performance.now();
  const res = await world.app.request(`http://localhost${pathText(request, resolve)}${queryText(request)}`, init);
  const body = await res.text();
  return { status: res.status, contentType: res.headers.get('Content-Type'), text: body, ms: performance.now() - started };
}

/** The path the app sees, after the URL parser has folded dot segments. */
const finalPath = (world: World, request: FuzzRequest) => new URL(`http://localhost${pathText(request, (name) => world.fixtures[name])}`).pathname;

/**
 * imagegate's errors carry a string `error`; the OpenAI-compatible /v1 surface answers every error in OpenAI's
 * shape, `{ error: { message, type, param, code } }` (its OpenAiError schema), which its SDKs read.
 */
function hasErrorText(parsed: unknown, path: string): boolean {
  if (typeof parsed !== 'object' || parsed === null) return false;
  const error = (parsed as { error?: unknown }).error;
  if (!path.startsWith('/v1/')) return typeof error === 'string';
  if (typeof error !== 'object' || error === null) return false;
  const { message, type, param, code } = error as Record<string, unknown>;
  return typeof message === 'string' && typeof type === 'string' && (typeof param === 'string' || param === null) && typeof code === 'string';
}

/** Why the request must be refused: its own reasons plus what the mode's gates (keys, permissions, IP list) demand. */
export function expectedRefusals(world: World, request: FuzzRequest): string[] {
  const reasons = [...request.refuse];
  const path = finalPath(world, request);
  const api = path.startsWith('/api/') || path.startsWith('/v1/');
  if (world.mode === 'ip_allowlist') {
    if (request.ip.allowed === false) reasons.push('the client IP is not on the allow-list');
    return reasons;
  }
  if (!api || request.method === 'OPTIONS') return reasons;
  if (request.auth.who === 'none' || request.auth.who === 'bad') reasons.push('no valid API key');
  if (request.auth.who === 'read' && (!['GET', 'HEAD'].includes(request.method) || /^\/api\/(keys|webhooks)(\/|$)/.test(path))) reasons.push('a read-only key');
  return reasons;
}

/** Every invariant of one exchange. `before`/`after` are the world's state around it. */
export function check(world: World, request: FuzzRequest, outcome: Outcome, before: Map<string, string>, after: Map<string, string>): Violation[] {
  const violations: Violation[] = [];
  const { status } = outcome;
  if (status >= 500) violations.push({ kind: 'server error', detail: `answered ${status}` });
  if (status >= 400 && request.method !== 'HEAD') {
    const forbiddenText = world.mode === 'ip_allowlist' && status === 403 && outcome.text === 'Forbidden';
    if (!forbiddenText) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(outcome.text);
      } catch {
        violations.push({ kind: 'error body is not JSON', detail: `Content-Type ${outcome.contentType ?? 'none'}` });
      }
      if (parsed !== undefined && !hasErrorText(parsed, finalPath(world, request))) {
        const detail = finalPath(world, request).startsWith('/v1/')
          ? "the body is JSON but not OpenAI's {error:{message,type,param,code}}"
          : 'the body is JSON but `error` is not a string';
        violations.push({ kind: 'error body has no string `error`', detail });
      }
      if (parsed !== undefined && !/^application\/json\b/i.test(outcome.contentType ?? '')) {
        violations.push({ kind: 'error body is not JSON', detail: `JSON text sent as Content-Type ${outcome.contentType ?? 'none'}` });
      }
    }
  }
  if (status >= 400) {
    const changes = describeChanges(before, after);
    if (changes.length > 0) violations.push({ kind: status < 500 ? 'refused request stored data' : 'failed request stored data', detail: changes.join('; ') });
  }
  const refusals = expectedRefusals(world, request);
  if (status < 400 && refusals.length > 0) violations.push({ kind: 'invalid request accepted', detail: `answered ${status} although: ${refusals.join('; ')}` });
  return violations;
}

/**
 * An equivalent spelling of `Content-Type: application/json` or `Authorization: Bearer <key>` must not be what
 * gets a request refused: when the variant was refused, the canonical request (on the same, unchanged state)
 * must be refused too. Returns the canonical twin to send, or undefined when there is nothing to compare.
 */
export function canonicalTwin(world: World, request: FuzzRequest, outcome: Outcome): FuzzRequest | undefined {
  if (outcome.status < 400 || outcome.status >= 500) return undefined;
  const ctVariant = request.contentType.kind === 'equivalent';
  const authVariant = world.mode !== 'ip_allowlist' && request.auth.who === 'admin' && !request.auth.canonical;
  if (!ctVariant && !authVariant) return undefined;
  const canonical = request.body instanceof Form ? MULTIPART_CT : JSON_CT;
  return { ...request, contentType: ctVariant ? canonical : request.contentType, auth: authVariant ? ADMIN : request.auth };
}

export function twinViolation(request: FuzzRequest, outcome: Outcome, twin: Outcome): Violation | undefined {
  if (twin.status >= 400) return undefined;
  const what = [
    request.contentType.kind === 'equivalent' ? `Content-Type ${JSON.stringify(request.contentType.header)}` : undefined,
    request.auth.who === 'admin' && !request.auth.canonical ? `Authorization ${JSON.stringify(request.auth.header)}` : undefined,
  ].filter((x) => x !== undefined);
  return {
    kind: 'equivalent spelling refused',
    detail: `${what.join(' and ')} answered ${outcome.status} ${abbreviate(outcome.text, 200)}, while the canonical spelling answered ${twin.status}`,
  };
}

/** A failure report: the concrete request as sent (ids filled in), what came back, and what is wrong with it. */
export function report(world: World, request: FuzzRequest, outcome: Outcome, violations: Violation[]): string {
  const resolve: Resolve = (name) => world.fixtures[name];
  return [
    `${violations.map((v) => `${v.kind}: ${v.detail}`).join('\n')}`,
    `request (mode ${world.mode}, operation ${request.operation}):`,
    `  ${describeRequest(request, world.mode, resolve).replaceAll('\n', '\n  ')}`,
    `response: ${outcome.status} ${outcome.contentType ?? '(no Content-Type)'} ${abbreviate(outcome.text, 600)}`,
  ].join('\n');
}

export const signature = (mode: Mode, request: FuzzRequest, outcome: Outcome, violation: Violation): string => {
  let code = '';
  try {
    code = String((JSON.parse(outcome.text) as { code?: unknown }).code ?? '');
  } catch {
    code = outcome.text.slice(0, 20);
  }
  return `${violation.kind} | ${request.operation} | ${outcome.status} ${code}${mode === 'ip_allowlist' ? ' | ip mode' : ''}`;
};

/** Where a created or updated resource can be read back. */
const READ_BACK: Record<string, string> = {
  'POST /api/generate': '/api/images/',
  'POST /api/uploads': '/api/images/',
  'POST /api/collections': '/api/collections/',
  'POST /api/templates': '/api/templates/',
  'PUT /api/templates/{id}': '/api/templates/',
  'POST /api/batch/create': '/api/batch/',
  'POST /api/batch/generate': '/api/batch/',
};

/**
 * What a 2xx create/update answered is what was stored: reading the resource back gives the same value for
 * every field the answer had (a value the database cannot hold, such as a lone surrogate, must be refused,
 * not silently changed). Undefined when there was nothing to read back.
 */
export async function readBack(world: World, request: FuzzRequest, outcome: Outcome): Promise<{ violation?: Violation } | undefined> {
  const base = READ_BACK[request.operation];
  if (base === undefined || outcome.status < 200 || outcome.status >= 300) return undefined;
  const answered = JSON.parse(outcome.text) as Record<string, unknown>;
  if (typeof answered.id !== 'string') return undefined;
  const headers: Record<string, string> = { Authorization: `Bearer ${world.fixtures.adminKey}`, 'CF-Connecting-IP': ALLOWED_IP.header! };
  const res = await world.app.request(`http://localhost${base}${encodeURIComponent(answered.id)}`, { headers });
  const text = await res.text();
  if (res.status !== 200)
    return { violation: { kind: 'answer differs from what was stored', detail: `GET ${base}${answered.id} answered ${res.status} ${abbreviate(text, 200)}` } };
  const stored = JSON.parse(text) as Record<string, unknown>;
  // Thumbnails are made after the answer, by a job of their own: the record may have them by now.
  const differing = Object.keys(answered).filter(
    (key) => key !== 'thumbnails' && key in stored && JSON.stringify(answered[key]) !== JSON.stringify(stored[key]),
  );
  if (differing.length === 0) return {};
  const show = (value: unknown) => abbreviate(JSON.stringify(value) ?? 'undefined', 120);
  return {
    violation: {
      kind: 'answer differs from what was stored',
      detail: differing.map((key) => `${key}: answered ${show(answered[key])}, read back ${show(stored[key])}`).join('; '),
    },
  };
}

/** Ids `GET /api/images?kind=upload` lists: the uploads a caller sees (a run makes far fewer than a page). */
export async function listedUploads(world: World): Promise<string[]> {
  const headers: Record<string, string> = { Authorization: `Bearer ${world.fixtures.adminKey}`, 'CF-Connecting-IP': ALLOWED_IP.header ?? '' };
  const res = await world.app.request('http://localhost/api/images?kind=upload&limit=100', { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /api/images?kind=upload answered ${res.status} ${abbreviate(text, 300)}`);
  return (JSON.parse(text) as { images: { id: string }[] }).images.map((image) => image.id).sort();
}

/**
 * A refused form stored no upload: the gallery's uploads are listed as before. An answer that is an upload
 * (`kind: "upload"`) is listed as a new one, or was listed already (the same bytes sent again are that upload).
 */
export function uploadsViolation(outcome: Outcome, before: readonly string[], after: readonly string[]): Violation | undefined {
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  const change = `GET /api/images?kind=upload listed ${before.length}, now ${after.length}${added.length > 0 ? ` (new: ${added.join(', ')})` : ''}${removed.length > 0 ? ` (gone: ${removed.join(', ')})` : ''}`;
  if (outcome.status >= 400) return added.length + removed.length === 0 ? undefined : { kind: 'refused request stored data', detail: change };
  if (outcome.status >= 300) return undefined;
  let answered: unknown;
  try {
    answered = JSON.parse(outcome.text);
  } catch {
    return undefined;
  }
  const { id, kind } = (answered ?? {}) as { id?: unknown; kind?: unknown };
  if (kind !== 'upload' || typeof id !== 'string') return undefined;
  // A new upload adds exactly the image answered; the same bytes again answer the upload already listed, adding nothing.
  const stored = added.length === 1 && added[0] === id;
  const found = added.length === 0 && before.includes(id);
  return (stored || found) && removed.length === 0
    ? undefined
    : { kind: 'answer differs from what was stored', detail: `answered the upload ${id}; ${change}` };
}

import fc from 'fast-check';
import { describeForm, Form } from './form.js';
import { abbreviate, Fixture, jsonText, placeholder, type J, type Resolve } from './json-text.js';

/** Which app a run talks to: key-based on the memory blob store, key-based on a local blob store, or IP allow-list. */
export type Mode = 'api_key' | 'local_files' | 'ip_allowlist';

export interface AuthChoice {
  /** The Authorization header, `{{adminKey}}` / `{{readKey}}` standing for the secrets; null sends none. */
  header: string | null;
  who: 'admin' | 'read' | 'none' | 'bad';
  /** False for spellings RFC 6750/9110 make equal to `Bearer <key>` (scheme case, whitespace). */
  canonical: boolean;
}

export interface ContentTypeChoice {
  header: string | null;
  /**
   * `equivalent`: another spelling of the canonical type (RFC 9110: case-insensitive, OWS, empty parameters): of
   * application/json, or for a multipart operation of `multipart/form-data` with the body's boundary.
   * `other`: not the operation's media type (or, for a form, without its boundary).
   */
  kind: 'canonical' | 'equivalent' | 'other' | 'missing';
}

export interface IpChoice {
  /** CF-Connecting-IP, read only in the IP allow-list mode; null sends none. */
  header: string | null;
  /** Whether the allow-list holds it; undefined when the spec leaves it open. */
  allowed: boolean | undefined;
  /** An X-Forwarded-For a client could forge; must never be trusted. */
  forwardedFor?: string;
}

/** One generated request, symbolic where it names per-run fixtures. */
export interface FuzzRequest {
  /** `METHOD /template` for documented operations, else a short description. */
  operation: string;
  method: string;
  /** URL path text; fixtures are filled in per run. */
  path: readonly (string | Fixture)[];
  /** Already URL-encoded name/value pairs; a null value is sent without `=`. */
  query: readonly (readonly [string, string | null])[];
  auth: AuthChoice;
  contentType: ContentTypeChoice;
  body: J | Form | undefined;
  ip: IpChoice;
  /** Why this request must be refused (status >= 400) whatever the mode's own gates decide. */
  refuse: readonly string[];
  /** What was mutated, for the report. */
  notes: readonly string[];
}

/** One property run: a fresh harness in `mode`, its fixtures, then these requests in order. */
export class FuzzRun {
  /** Index of the request that failed, once one has: the ones after it were never sent. */
  failedAt: number | undefined;

  constructor(
    readonly mode: Mode,
    readonly requests: readonly FuzzRequest[],
  ) {}

  [fc.toStringMethod](): string {
    const sent = this.failedAt === undefined ? this.requests : this.requests.slice(0, this.failedAt + 1);
    const lines = sent.map((request, i) => `#${i + 1} ${describeRequest(request, this.mode).replaceAll('\n', '\n     ')}`);
    const unsent = this.requests.length - sent.length;
    const tail = unsent > 0 ? `\n  (${unsent} later request(s) not sent: the run stopped at #${sent.length})` : '';
    return `\n  mode ${this.mode}: a fresh app and its fixtures, then\n  ${lines.join('\n  ')}${tail}\n`;
  }
}

export const pathText = (request: FuzzRequest, resolve: Resolve): string =>
  request.path.map((part) => (part instanceof Fixture ? resolve(part.name) : part)).join('');

export const queryText = (request: FuzzRequest): string =>
  request.query.length === 0 ? '' : `?${request.query.map(([name, value]) => (value === null ? name : `${name}=${value}`)).join('&')}`;

/** The JSON (or raw) body's text; undefined for no body and for a form. */
export const bodyText = (request: FuzzRequest, resolve: Resolve): string | undefined =>
  request.body === undefined || request.body instanceof Form ? undefined : jsonText(request.body, resolve);

/** A form sent as the platform's FormData encodes it, with FormData's own Content-Type (and boundary). */
export const viaFormData = (request: FuzzRequest): boolean =>
  request.body instanceof Form && request.body.encoder === 'formdata' && request.body.malformed === undefined && request.contentType.kind === 'canonical';

/** Headers as sent in `mode` (fixtures resolved by `resolve`). */
export function requestHeaders(request: FuzzRequest, mode: Mode, resolve: Resolve): Record<string, string> {
  const headers: Record<string, string> = {};
  if (request.auth.header !== null) {
    headers.Authorization = request.auth.header.replaceAll('{{adminKey}}', resolve('adminKey')).replaceAll('{{readKey}}', resolve('readKey'));
  }
  if (request.contentType.header !== null && !viaFormData(request)) headers['Content-Type'] = request.contentType.header;
  if (mode === 'ip_allowlist') {
    if (request.ip.header !== null) headers['CF-Connecting-IP'] = request.ip.header;
    if (request.ip.forwardedFor !== undefined) headers['X-Forwarded-For'] = request.ip.forwardedFor;
  }
  return headers;
}

/** The request as a few readable lines: method and URL, headers, body (abbreviated), expectation and mutation notes. */
export function describeRequest(request: FuzzRequest, mode: Mode, resolve: Resolve = placeholder): string {
  const lines = [`${request.method} ${abbreviate(pathText(request, resolve) + queryText(request), 300)}`];
  const headers = requestHeaders(request, mode, resolve);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${JSON.stringify(abbreviate(value, 120)).slice(1, -1)}`);
  if (viaFormData(request)) lines.push("Content-Type: multipart/form-data; boundary=(FormData's own)");
  if (request.body instanceof Form) {
    lines.push(`body: ${abbreviate(describeForm(request.body, resolve, viaFormData(request)), 900)}`);
  } else if (request.body !== undefined) {
    const full = jsonText(request.body, resolve);
    lines.push(`body (${Buffer.byteLength(full)} bytes): ${abbreviate(jsonText(request.body, resolve, true), 600)}`);
  }
  if (request.notes.length > 0) lines.push(`mutation: ${request.notes.join('; ')}`);
  if (request.refuse.length > 0) lines.push(`must be refused: ${request.refuse.join('; ')}`);
  return lines.join('\n');
}

import fc from 'fast-check';
import { bodyArb, bodyRefusal, type BodyChoice, type Catalogue } from './bodies.js';
import { Form } from './form.js';
import { anyMultipartCt, formBodyArb, multipartRefusals, notFormBodyArb, okMultipartCt } from './form-arbitraries.js';
import { Fixture, jsonText, placeholder, Raw, type FixtureName } from './json-text.js';
import { typeOf, type Operation, type Parameter } from './openapi.js';
import { FuzzRun, type AuthChoice, type ContentTypeChoice, type FuzzRequest, type IpChoice, type Mode } from './request.js';

const MAX_BODY_BYTES = 1024 * 1024;

// ---- Authorization -------------------------------------------------------------------------------------------

export const ADMIN: AuthChoice = { header: 'Bearer {{adminKey}}', who: 'admin', canonical: true };
const ADMIN_EQUIVALENTS: AuthChoice[] = [
  'bearer {{adminKey}}',
  'BEARER {{adminKey}}',
  'Bearer  {{adminKey}}',
  'Bearer\t{{adminKey}}',
  'Bearer {{adminKey}} ',
].map((header) => ({ header, who: 'admin', canonical: false }));
const READ: AuthChoice = { header: 'Bearer {{readKey}}', who: 'read', canonical: true };
const NONE: AuthChoice = { header: null, who: 'none', canonical: true };
const BAD: AuthChoice[] = [
  'Bearer',
  'Bearer ',
  '',
  'Basic {{adminKey}}',
  'Token {{adminKey}}',
  '{{adminKey}}',
  'Bearer {{adminKey}}x',
  'Bearer igk_test_unknown_key',
  'Bearer {{adminKey}} {{adminKey}}',
  'Bearer {{adminKey}},Bearer other',
  'Bearer "{{adminKey}}"',
  'Bearer \u00e4\u00f6\u00fc',
  `Bearer ${'A'.repeat(8192)}`,
].map((header) => ({ header, who: 'bad', canonical: true }));

const okAuth = fc.oneof({ weight: 4, arbitrary: fc.constant(ADMIN) }, { weight: 1, arbitrary: fc.constantFrom(...ADMIN_EQUIVALENTS) });
const anyAuth = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...ADMIN_EQUIVALENTS) },
  { weight: 3, arbitrary: fc.constant(READ) },
  { weight: 2, arbitrary: fc.constant(NONE) },
  { weight: 3, arbitrary: fc.constantFrom(...BAD) },
);

// ---- Content-Type --------------------------------------------------------------------------------------------

export const JSON_CT: ContentTypeChoice = { header: 'application/json', kind: 'canonical' };
const MISSING_CT: ContentTypeChoice = { header: null, kind: 'missing' };
const EQUIVALENT_CTS: ContentTypeChoice[] = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json ;charset=utf-8',
  'APPLICATION/JSON',
  'Application/Json; Charset=UTF-8',
  'application/json;',
  'application/json; charset="utf-8"',
  'application/json;\tcharset=utf-8',
].map((header) => ({ header, kind: 'equivalent' }));
const NOT_JSON_CTS: ContentTypeChoice[] = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/jsonp',
  'application/json-seq',
  'json',
  '*/*',
  '',
].map((header) => ({ header, kind: 'other' }));

const okContentType = fc.oneof({ weight: 5, arbitrary: fc.constant(JSON_CT) }, { weight: 2, arbitrary: fc.constantFrom(...EQUIVALENT_CTS) });
const anyContentType = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EQUIVALENT_CTS) },
  { weight: 3, arbitrary: fc.constantFrom(...NOT_JSON_CTS) },
  { weight: 1, arbitrary: fc.constant(MISSING_CT) },
);

// ---- Client IP (IP allow-list mode) --------------------------------------------------------------------------

export const ALLOWED_IPS = ['203.0.113.7', '2001:db8::1'];
export const ALLOWED_IP: IpChoice = { header: '203.0.113.7', allowed: true };
const IPS: IpChoice[] = [
  ALLOWED_IP,
  { header: '::ffff:203.0.113.7', allowed: true },
  { header: '2001:DB8::1', allowed: true },
  { header: '2001:db8:0:0:0:0:0:1', allowed: true },
  { header: null, allowed: false },
  { header: '', allowed: false },
  { header: '203.0.113.8', allowed: false },
  { header: '127.0.0.1', allowed: false },
  { header: '127.1', allowed: false },
  { header: '203.0.113.7, 198.51.100.1', allowed: false },
  { header: 'unknown', allowed: false },
  { header: '2001:db8::2', allowed: false },
  { header: '198.51.100.1', allowed: false, forwardedFor: '203.0.113.7' },
  { header: 'x'.repeat(2000), allowed: false },
  { header: '203.0.113.007', allowed: undefined },
  { header: '2001:db8::1%eth0', allowed: undefined },
];
const ipArb = fc.oneof({ weight: 6, arbitrary: fc.constant(ALLOWED_IP) }, { weight: 3, arbitrary: fc.constantFrom(...IPS) });

// ---- Path parameters -----------------------------------------------------------------------------------------

interface PathValue {
  value: string | Fixture;
  refuse?: string;
  note?: string;
}

const ID_FIXTURES: FixtureName[] = ['image', 'collection', 'template', 'batch', 'readKeyId'];

/** The fixtures a path parameter may name. */
function validIds(op: Operation, param: string): (string | Fixture)[] {
  if (param === 'image_id') return [new Fixture('image')];
  if (op.path.startsWith('/api/images/')) return [new Fixture('image')];
  if (op.path.startsWith('/api/collections/')) return [new Fixture('collection')];
  if (op.path.startsWith('/api/templates/')) return [new Fixture('template'), new Fixture('sampleTemplate')];
  if (op.path.startsWith('/api/batch/')) return [new Fixture('batch')];
  if (op.path.startsWith('/api/keys/')) return [new Fixture('readKeyId')];
  if (op.path.startsWith('/api/models/'))
    return ['local/procedural', 'local%2Fprocedural', '@cf/black-forest-labs/flux-1-schnell', '%40cf%2Fblack-forest-labs%2Fflux-1-schnell'];
  return ['x'];
}

/** Ids that exist nowhere (URL text). */
const JUNK_IDS = [
  'toString',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'valueOf',
  '%2F',
  '%00',
  '%E0%A4%A',
  '%',
  '%25',
  '%ZZ',
  '%F0%9F%98%80',
  '%C3%A9t%C3%A9',
  '%ED%A0%80',
  'null',
  'undefined',
  'NaN',
  '0',
  '-1',
  '1e400',
  '9223372036854775808',
  '%20',
  '*',
  'a'.repeat(300),
  'b'.repeat(5000),
  `img_${'0'.repeat(26)}`,
  encodeURIComponent("'; DROP TABLE images; --"),
  '%E2%80%AE',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
];
/** Dot segments: the URL parser folds them into the parent path, which may be a real route, so no expectation. */
const DOT_IDS = ['..', '.', '%2e%2e', '%2E', '.%2e'];

function pathValueArb(op: Operation, param: string, mutate: boolean): fc.Arbitrary<PathValue> {
  const valid = validIds(op, param);
  const ok = fc.constantFrom(...valid).map((value): PathValue => ({ value }));
  if (!mutate) return ok;
  const validNames = new Set(valid.flatMap((v) => (v instanceof Fixture ? [v.name] : [])));
  const otherKinds = ID_FIXTURES.filter((name) => !validNames.has(name)).map((name) => new Fixture(name));
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...JUNK_IDS).map((value): PathValue => ({
        value,
        refuse: `${param} names nothing`,
        note: `${param} = ${value.length > 40 ? `${value.slice(0, 8)}…(${value.length} chars)` : value}`,
      })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...DOT_IDS).map((value): PathValue => ({ value, note: `${param} = ${value}` })) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...otherKinds)
        .map((value): PathValue => ({ value, refuse: `${param} is the id of a ${value.name}`, note: `${param} = {{${value.name}}}` })),
    },
  );
}

/** The path with one parameter (if `mutate`) replaced by junk; the others name fixtures. */
function pathArb(op: Operation, mutate: boolean): fc.Arbitrary<{ parts: (string | Fixture)[]; refuse: string[]; notes: string[] }> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const build = (values: PathValue[]) => {
    const pieces = op.path.split(/\{[^}]+\}/);
    const parts: (string | Fixture)[] = [];
    pieces.forEach((piece, i) => {
      parts.push(piece);
      const value = values[i];
      if (value !== undefined) parts.push(value.value);
    });
    return {
      parts: parts.filter((part) => part !== ''),
      refuse: values.flatMap((v) => (v.refuse === undefined ? [] : [v.refuse])),
      notes: values.flatMap((v) => (v.note === undefined ? [] : [v.note])),
    };
  };
  if (!mutate || names.length === 0) return fc.tuple(...names.map((name) => pathValueArb(op, name, false))).map(build);
  return fc
    .tuple(fc.nat({ max: names.length - 1 }), ...names.map((name) => pathValueArb(op, name, true)), ...names.map((name) => pathValueArb(op, name, false)))
    .map(([which, ...values]) => build(names.map((_, i) => (i === which ? values[i]! : values[names.length + i]!))));
}

// ---- Query parameters (URL-encoded text) ---------------------------------------------------------------------

const INTEGER_VALUES = {
  limit: {
    ok: ['1', '5', '20', '100', '007'],
    bad: ['0', '-1', '1.5', 'abc', '', '0x10', '1e3', '%2B5', '%205', '-0', 'NaN', 'Infinity', '1%2C2', '101', '1000', '9223372036854775808', '1e400'],
  },
  offset: {
    ok: ['0', '1', '3', '100', '100000', '1000000000'],
    bad: [
      '-1',
      '1.5',
      'abc',
      '',
      '0x10',
      '1e3',
      '%2B5',
      '-0',
      'NaN',
      'Infinity',
      '1000000001',
      '9223372036854775808',
      '18446744073709551616',
      '1'.repeat(30),
      '1e400',
    ],
  },
};
const INTEGER_ODD = ['1'.repeat(400), '00', '%E0%A4%A', '%', '1%00', '%EF%BC%91'];
const DATES = {
  ok: [
    '2026-11-01',
    '2026-11-20',
    '2024-02-29',
    '2026-11-20T10:00:00Z',
    '2026-11-20T10:00:00.123Z',
    '2026-11-20T12:00:00%2B02:00',
    '2026-11-20T10:00Z',
    '1970-01-01',
    '0001-01-01',
    '9999-12-31',
  ],
  bad: [
    '2026-02-31',
    '2026-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-11-00',
    '2026-11-01T24:00:00Z',
    '2026-11-01T23:60:00Z',
    '2026-11-01T25:00:00Z',
    '2026-11-01T10:61Z',
    '2026-11-01T10:00:00',
    '2026-11-01T10:00:00%2B25:00',
    'yesterday',
    '',
    '20261101',
    '2026-1-1',
    'T24:00:00Z',
  ],
  odd: ['2026-11-01T23:59:60Z', '%2B275760-09-13T00:00:00Z', '%00', '2026-11-01%20', '%E0%A4%A'],
};
/** Free-form string parameters (`user_id`): the first three are ordinary. */
const STRINGS = ['*', 'admin', 'alice', '', '%2A', 'a'.repeat(300), '%00', '__proto__', '%E0%A4%A'];
const EXTRA_QUERY: (readonly [string, string | null])[] = [
  ['foo', 'bar'],
  ['limit[]', '5'],
  ['__proto__', '1'],
  ['constructor', 'x'],
  ['toString', '1'],
  ['', ''],
  ['%E0%A4%A', '1'],
  ['flag', null],
];

interface QueryValue {
  value: string | undefined;
  refuse?: string;
}

/** Values for one query parameter, by its schema type (and by name for the well-known ones). */
function queryValueArb(param: Parameter, mutate: boolean): fc.Arbitrary<QueryValue> {
  const { name } = param;
  const absent = fc.constant<QueryValue>({ value: undefined });
  const pick = (values: string[], refuse?: string) =>
    fc.constantFrom(...values).map((value): QueryValue => (refuse === undefined ? { value } : { value, refuse }));
  if (typeOf(param.schema) === 'integer') {
    const values = name === 'limit' ? INTEGER_VALUES.limit : INTEGER_VALUES.offset;
    const ok = pick(values.ok);
    if (!mutate) return fc.oneof(absent, ok);
    return fc.oneof(
      { weight: 1, arbitrary: ok },
      { weight: 3, arbitrary: pick(values.bad, `${name} is not a whole number in ${name === 'limit' ? '1..100' : '0..1000000000'}`) },
      { weight: 1, arbitrary: pick(INTEGER_ODD) },
    );
  }
  if (name === 'from' || name === 'to') {
    const ok = pick(DATES.ok);
    if (!mutate) return fc.oneof(absent, ok);
    return fc.oneof(
      { weight: 1, arbitrary: ok },
      { weight: 3, arbitrary: pick(DATES.bad, `${name} is not a real date or UTC timestamp`) },
      { weight: 1, arbitrary: pick(DATES.odd) },
    );
  }
  return mutate ? pick(STRINGS) : fc.oneof(absent, pick(STRINGS.slice(0, 3)));
}

/** Start of the instant a valid `from`/`to` value names, and its end (a date covers its whole day). */
function instantRange(encoded: string): [number, number] {
  const text = decodeURIComponent(encoded);
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const start = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  return [start, dateOnly ? start + 86_400_000 : start];
}

function queryArb(op: Operation, mutate: boolean): fc.Arbitrary<{ pairs: [string, string | null][]; refuse: string[]; notes: string[] }> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const names = params.map((p) => p.name);
  const extraPairs =
    names.length === 0 ? fc.constantFrom(...EXTRA_QUERY) : fc.oneof(fc.constantFrom(...EXTRA_QUERY), fc.constantFrom(...names.map((n) => [n, '7'] as const)));
  const extras = fc.option(extraPairs, { nil: undefined, freq: mutate ? 2 : 8 });
  const values = params.map((param) => queryValueArb(param, mutate));
  return fc.tuple(extras, ...values).map(([extra, ...chosen]) => {
    const pairs: [string, string | null][] = [];
    const refuse: { name: string; reason: string }[] = [];
    const notes: string[] = [];
    chosen.forEach((choice, i) => {
      if (choice.value === undefined) return;
      pairs.push([names[i]!, choice.value]);
      if (mutate) notes.push(`${names[i]}=${choice.value.length > 40 ? `${choice.value.slice(0, 8)}…(${choice.value.length} chars)` : choice.value}`);
      if (choice.refuse !== undefined) refuse.push({ name: names[i]!, reason: choice.refuse });
    });
    if (extra !== undefined) {
      pairs.push([extra[0], extra[1]]);
      notes.push(names.includes(extra[0]) ? `${extra[0]} repeated` : `extra query ${extra[0]}${extra[1] === null ? '' : `=${extra[1]}`}`);
    }
    // A repeated parameter may be read either way: no expectation about it.
    const repeated = new Set(pairs.map(([n]) => n).filter((n, i, all) => all.indexOf(n) !== i));
    const kept = refuse.filter(({ name }) => !repeated.has(name)).map(({ reason }) => reason);
    const from = pairs.find(([n]) => n === 'from')?.[1];
    const to = pairs.find(([n]) => n === 'to')?.[1];
    if (from != null && to != null && DATES.ok.includes(from) && DATES.ok.includes(to) && !repeated.has('from') && !repeated.has('to')) {
      if (instantRange(from)[0] >= instantRange(to)[1]) kept.push('from is not before to');
    }
    return { pairs, refuse: kept, notes };
  });
}

// ---- Operations ----------------------------------------------------------------------------------------------

type Focus = 'valid' | 'body' | 'query' | 'path' | 'content-type' | 'auth' | 'not-a-form';

interface Parts {
  path: { parts: (string | Fixture)[]; refuse: string[]; notes: string[] };
  query: { pairs: [string, string | null][]; refuse: string[]; notes: string[] };
  body: BodyChoice;
  auth: AuthChoice;
  contentType: ContentTypeChoice;
  ip: IpChoice;
}

const isWrite = (method: string) => method === 'POST' || method === 'PUT';

/** Request-level refusals that follow from the Content-Type, the body and its size (POST/PUT under /api/). */
function writeRefusals(op: Operation, contentType: ContentTypeChoice, body: BodyChoice['body'], catalogue: Catalogue): string[] {
  if (!isWrite(op.method)) return [];
  if (op.form !== undefined) return multipartRefusals(op.form, contentType, body);
  if (body instanceof Form) return ['a multipart form where the operation takes JSON'];
  const reasons: string[] = [];
  const bytes = body === undefined ? 0 : Buffer.byteLength(jsonText(body, placeholder));
  const json = contentType.kind === 'canonical' || contentType.kind === 'equivalent';
  // An operation without a request body accepts an empty body whatever its headers (docs/decisions.md: Bodies).
  if (!json && (bytes > 0 || op.body !== undefined)) reasons.push('Content-Type is not application/json');
  if (json) {
    const reason = bodyRefusal(op, body, catalogue);
    if (reason !== undefined) reasons.push(reason);
  }
  if (bytes > MAX_BODY_BYTES) reasons.push('body over 1 MiB');
  return reasons;
}

function operationArb(op: Operation, catalogue: Catalogue): fc.Arbitrary<FuzzRequest> {
  const write = isWrite(op.method);
  const hasPathParams = op.path.includes('{');
  const hasQuery = op.parameters.some((p) => p.in === 'query');
  const noBody = fc.constant<BodyChoice>({ body: undefined });
  const compose = (focus: Focus, parts: { [K in keyof Parts]: fc.Arbitrary<Parts[K]> }) =>
    fc.record(parts).map((p): FuzzRequest => {
      // A bodiless action sent without a body carries no Content-Type either, unless that is what is fuzzed.
      const bodiless = op.body === undefined && op.form === undefined;
      const contentType = !write || (p.body.body === undefined && bodiless && focus !== 'content-type') ? MISSING_CT : p.contentType;
      const refuse = [...p.path.refuse, ...p.query.refuse, ...writeRefusals(op, contentType, p.body.body, catalogue)];
      if (isWrite(op.method) || op.method === 'DELETE') {
        if (p.path.parts.some((part) => part instanceof Fixture && part.name === 'sampleTemplate')) refuse.push('sample templates are read-only');
      }
      const notes = [...p.path.notes, ...p.query.notes, ...(p.body.note === undefined ? [] : [`body: ${p.body.note}`])];
      if (focus === 'content-type' || focus === 'not-a-form' || contentType.kind === 'equivalent')
        notes.push(`Content-Type ${JSON.stringify(contentType.header)}`);
      if (p.auth.who !== 'admin' || !p.auth.canonical) notes.push(`auth ${p.auth.who}${p.auth.canonical ? '' : ' (equivalent spelling)'}`);
      return {
        operation: op.key,
        method: op.method,
        path: p.path.parts,
        query: p.query.pairs,
        auth: p.auth,
        contentType,
        body: write ? p.body.body : undefined,
        ip: p.ip,
        refuse,
        notes,
      };
    });
  const form = write ? op.form : undefined;
  const valid = {
    path: pathArb(op, false),
    query: queryArb(op, false),
    body: form !== undefined ? formBodyArb(form, op, false) : write ? bodyArb(op, false) : noBody,
    auth: okAuth,
    contentType: form !== undefined ? okMultipartCt : okContentType,
    ip: ipArb,
  };
  const focuses: fc.WeightedArbitrary<FuzzRequest>[] = [{ weight: 3, arbitrary: compose('valid', valid) }];
  if (form !== undefined) {
    // A form route: broken forms and files, forms under other Content-Types, and bodies that are no form at all.
    focuses.push({ weight: 6, arbitrary: compose('body', { ...valid, body: formBodyArb(form, op, true) }) });
    focuses.push({ weight: 2, arbitrary: compose('content-type', { ...valid, contentType: anyMultipartCt }) });
    const jsonish = fc.oneof({ weight: 3, arbitrary: okContentType }, { weight: 1, arbitrary: anyContentType }, { weight: 1, arbitrary: okMultipartCt });
    focuses.push({ weight: 2, arbitrary: compose('not-a-form', { ...valid, body: notFormBodyArb(form, op), contentType: jsonish }) });
  } else if (write) {
    focuses.push({ weight: 6, arbitrary: compose('body', { ...valid, body: bodyArb(op, true) }) });
    focuses.push({ weight: 2, arbitrary: compose('content-type', { ...valid, contentType: anyContentType }) });
  }
  if (hasQuery) focuses.push({ weight: 4, arbitrary: compose('query', { ...valid, query: queryArb(op, true) }) });
  if (hasPathParams) focuses.push({ weight: 3, arbitrary: compose('path', { ...valid, path: pathArb(op, true) }) });
  focuses.push({ weight: 2, arbitrary: compose('auth', { ...valid, auth: anyAuth }) });
  return fc.oneof(...focuses);
}

// ---- Wrong methods and paths outside the document ------------------------------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

function wrongMethodArb(operations: Operation[]): fc.Arbitrary<FuzzRequest> {
  const byPath = new Map<string, Operation[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const candidates: fc.Arbitrary<FuzzRequest>[] = [];
  for (const ops of byPath.values()) {
    const op = ops[0]!;
    const declared = new Set(ops.map((o) => o.method));
    const methods = [...METHODS.filter((m) => !declared.has(m)), ...(declared.has('GET') ? [] : ['HEAD']), 'OPTIONS'];
    for (const method of methods) {
      const canHaveBody = !['GET', 'HEAD', 'OPTIONS'].includes(method);
      candidates.push(
        fc.tuple(pathArb(op, false), canHaveBody ? fc.boolean() : fc.constant(false), ipArb).map(([path, withBody, ip]): FuzzRequest => ({
          operation: `wrong method ${method} ${op.path}`,
          method,
          path: path.parts,
          query: [],
          auth: ADMIN,
          contentType: withBody ? JSON_CT : MISSING_CT,
          body: withBody ? new Raw('{}') : undefined,
          ip,
          refuse: method === 'OPTIONS' ? [] : [`${op.path} has no ${method} operation`],
          notes: [`${method} on ${op.path}`],
        })),
      );
    }
  }
  return fc.oneof(...candidates);
}

interface ExtraPath {
  path: (string | Fixture)[];
  /** A GET must be refused (nothing is served there). */
  missing?: boolean;
  note: string;
}

const EXTRA_PATHS: ExtraPath[] = [
  { path: ['/files/', new Fixture('imageKey')], note: 'a stored file' },
  { path: ['/files/generated'], missing: true, note: 'a directory' },
  { path: ['/files/generated/'], missing: true, note: 'a directory with a slash' },
  { path: ['/files/', new Fixture('imageKey'), '/x.png'], missing: true, note: 'a path under a file' },
  { path: ['/files/', new Fixture('imageKey'), '/'], missing: true, note: 'a file with a trailing slash' },
  { path: [`/files/${'a'.repeat(300)}`], missing: true, note: 'a 300-char name' },
  { path: [`/files/generated/${'b'.repeat(300)}.png`], missing: true, note: 'a 300-char name in a directory' },
  { path: [`/files/${'c'.repeat(255)}`], missing: true, note: 'a 255-char name' },
  { path: [`/files/${`${'d'.repeat(200)}/`.repeat(25)}e.png`], missing: true, note: 'a 5,000-char path' },
  { path: [`/files/${'generated/'.repeat(50)}x.png`], missing: true, note: 'deep directories' },
  { path: ['/files/..%2F..%2Fetc%2Fpasswd'], missing: true, note: 'encoded traversal' },
  { path: ['/files/%2e%2e/%2e%2e/etc/passwd'], missing: true, note: 'encoded dot segments' },
  { path: ['/files/generated/%00.png'], missing: true, note: 'a NUL byte' },
  { path: ['/files/generated/%E0%A4%A.png'], missing: true, note: 'broken percent-encoding' },
  { path: ['/files/.hidden'], missing: true, note: 'a dot file' },
  { path: ['/files/'], missing: true, note: 'the files root' },
  { path: ['/files'], missing: true, note: 'files without a slash' },
  ...[
    'toString',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    '__defineGetter__',
    'package.json',
    'index.html',
    '..%2Fpackage.json',
    '%2e%2e',
  ].map((name): ExtraPath => ({ path: [`/docs/assets/${name}`], missing: true, note: `docs asset ${name}` })),
  { path: ['/docs/assets/swagger-ui.css'], note: 'a docs asset' },
  { path: ['/docs/assets/favicon-32x32.png'], note: 'the favicon' },
  { path: ['/docs'], note: 'the reference page' },
  { path: ['/docs/init.js'], note: 'the docs script' },
  { path: ['/health'], note: 'health' },
  { path: ['/openapi.json'], note: 'the document' },
  { path: ['/'], note: 'the root' },
  { path: ['/nope'], missing: true, note: 'an unknown path' },
  { path: ['/favicon.ico'], missing: true, note: 'favicon' },
  { path: ['/%E0%A4%A'], missing: true, note: 'broken percent-encoding at the root' },
  { path: ['/api'], note: '/api' },
  { path: ['/api/'], note: '/api/' },
  { path: ['/api/nope'], missing: true, note: 'an unknown API path' },
  { path: ['/api//images'], note: 'a double slash' },
  { path: ['/api/images/'], note: 'a trailing slash' },
  { path: ['/api/%E0%A4%A'], missing: true, note: 'broken percent-encoding in /api' },
];

function extraPathArb(): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.constantFrom(...EXTRA_PATHS),
      fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
      fc.oneof({ weight: 4, arbitrary: fc.constant(ADMIN) }, { weight: 1, arbitrary: fc.constant(NONE) }),
      ipArb,
    )
    .map(([extra, method, auth, ip]): FuzzRequest => {
      const refuse: string[] = [];
      if ((method === 'GET' || method === 'HEAD') && extra.missing === true) refuse.push(`nothing is served at ${extra.note}`);
      if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) refuse.push(`${method} is not an operation of ${extra.note}`);
      return {
        operation: `outside the document: ${method} ${extra.note}`,
        method,
        path: extra.path,
        query: [],
        auth,
        contentType: MISSING_CT,
        body: undefined,
        ip,
        refuse,
        notes: [extra.note],
      };
    });
}

/** One request: a documented operation (each as likely as the next), a wrong method, or a path outside the document. */
export function requestArb(operations: Operation[], catalogue: Catalogue): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    // Operations that take a body have the most to fuzz: they come up three times as often, forms (files) four.
    {
      weight: 16,
      arbitrary: fc.oneof(
        ...operations.map((op) => ({ weight: op.form !== undefined ? 4 : op.body === undefined ? 1 : 3, arbitrary: operationArb(op, catalogue) })),
      ),
    },
    { weight: 2, arbitrary: wrongMethodArb(operations) },
    { weight: 3, arbitrary: extraPathArb() },
  );
}

export function runArb(operations: Operation[], catalogue: Catalogue, maxRequests: number): fc.Arbitrary<FuzzRun> {
  const mode = fc.oneof(
    { weight: 14, arbitrary: fc.constant<Mode>('api_key') },
    { weight: 3, arbitrary: fc.constant<Mode>('local_files') },
    { weight: 3, arbitrary: fc.constant<Mode>('ip_allowlist') },
  );
  return fc.tuple(mode, fc.array(requestArb(operations, catalogue), { minLength: 1, maxLength: maxRequests })).map(([m, requests]) => new FuzzRun(m, requests));
}

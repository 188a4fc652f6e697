import fc from 'fast-check';
import { Fixture, fromPlain, nestedArrays, nestedObjects, Obj, placeholder, Raw, jsonText, type J } from './json-text.js';
import type { Form } from './form.js';
import { isObjectSchema, typeOf, violation, type Operation, type Schema } from './openapi.js';

/** What the fuzzer knows about the running app beyond its document: the model catalogue. */
export interface Catalogue {
  known: ReadonlySet<string>;
  available: ReadonlySet<string>;
}

export interface BodyChoice {
  /** JSON (or raw text), a multipart form, or nothing. */
  body: J | Form | undefined;
  note?: string;
}

const PROMPTS = [
  'a red fox in fresh snow',
  'lighthouse on a cliff at sunset',
  'foggy harbour at night',
  'a calm ocean under warm orange clouds',
  'city skyline, blue hour',
];

/** Valid values for fields the schema alone cannot make usable (ids, models, prompts), and cheap sizes. */
function hintFor(name: string, schema: Schema): fc.Arbitrary<J> | undefined {
  switch (name) {
    case 'prompt':
    case 'default_prompt':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...PROMPTS) },
        { weight: 1, arbitrary: fc.string({ minLength: 3, maxLength: 40, unit: 'grapheme' }).filter((s) => s.trim().length >= 3) },
      );
    case 'prompts':
      return fc.array(fc.constantFrom(...PROMPTS), { minLength: 1, maxLength: 3 });
    case 'negative_prompt':
      return fc.constantFrom('blurry', 'text, watermark', '');
    case 'model':
      return fc.oneof({ weight: 5, arbitrary: fc.constant('local/procedural') }, { weight: 1, arbitrary: fc.constant('@cf/black-forest-labs/flux-1-schnell') });
    case 'template_id':
      return fc.constantFrom(new Fixture('template'), new Fixture('sampleTemplate'));
    case 'image_id':
      return fc.constant(new Fixture('image'));
    case 'width':
    case 'height':
      // Valid bodies stay small: local/procedural takes ~40 ms at 512².
      return fc.integer({ min: 64, max: 256 });
    case 'size':
      // POST /v1/images/generations: small sizes keep valid generations cheap, as width and height above.
      return fc.constantFrom('64x64', '128x96', '256x256');
    case 'n':
      return fc.integer({ min: 1, max: 2 });
    case 'steps':
      return fc.integer({ min: 1, max: 8 });
    case 'metadata':
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }).map(fromPlain);
    case 'webhook_url':
      return fc.constantFrom('https://example.com/hooks/imagegate', 'http://hooks.example.org/in?source=imagegate');
    case 'expires_at':
      return fc.constantFrom('2027-01-01T00:00:00Z', '2030-06-15T12:30:00+02:00');
    case 'user_id':
      return fc.constantFrom('admin', 'alice', 'bob.smith@example.com');
    case 'name':
      return fc.oneof(
        fc.constantFrom('Moodboard', 'fuzz', 'Spring campaign'),
        fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((s) => s.trim() !== ''),
      );
    case 'description':
      return fc.constantFrom('', 'Ideas for the spring campaign', 'ünïcödé ✓');
    case 'rate_limit':
      return fc.integer({ min: 1, max: schema.maximum ?? 1000 });
    default:
      return undefined;
  }
}

/** A value valid for `schema` (and usually for the domain), made from the schema and the name hints. */
export function validValue(schema: Schema, name: string, op: Operation): fc.Arbitrary<J> {
  const hint = hintFor(name, schema);
  if (hint !== undefined) return hint;
  if (schema.enum !== undefined) return fc.constantFrom(...(schema.enum as J[]));
  switch (typeOf(schema)) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc
        .double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true })
        .map((n) => (Object.is(n, -0) ? 0 : n));
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.string({ minLength: Math.max(1, schema.minLength ?? 0), maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'array': {
      const items = schema.items === undefined ? fc.constant<J>('x') : validValue(schema.items, `${name}[]`, op);
      if (schema.items?.enum !== undefined) return fc.subarray(schema.items.enum as J[], { minLength: Math.max(1, schema.minItems ?? 0) });
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: 3 });
    }
    case 'object':
      return validObject(schema, op);
    default:
      return fc.constant('x');
  }
}

/** Fields a generating request always carries, so valid generations stay at most 256². */
const ALWAYS = new Set(['width', 'height']);
const GENERATING = new Set(['POST /api/generate', 'POST /api/batch/create', 'POST /api/batch/generate']);

export function validObject(schema: Schema, op: Operation): fc.Arbitrary<Obj> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const always = (name: string) => required.has(name) || (GENERATING.has(op.key) && ALWAYS.has(name));
  const parts = properties.map(([name, property]) =>
    always(name) ? validValue(property, name, op) : fc.option(validValue(property, name, op), { nil: undefined, freq: 2 }),
  );
  return fc.tuple(...parts).map((values) => new Obj(properties.flatMap(([name], i) => (values[i] === undefined ? [] : [[name, values[i] as J] as const]))));
}

const longString = (n: number) => new Raw(JSON.stringify('a'.repeat(n)), `"a"×${n}`);

/** Values that break a field or probe the parser (the MCP fuzz uses them too): wrong types, edge numbers as raw text, long and odd strings, deep nesting. */
export const ODD_VALUES: readonly { value: J; note: string }[] = [
  { value: null, note: 'null' },
  { value: true, note: 'true' },
  { value: 42, note: '42' },
  { value: -1, note: '-1' },
  { value: 'a string', note: 'a string' },
  { value: [], note: '[]' },
  { value: new Obj([]), note: '{}' },
  { value: ['x'], note: '["x"]' },
  ...[
    '1e400',
    '-1e400',
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
    '1e-400',
    '-0',
    '0.5',
    '1.5',
    '4294967296',
    '2049',
    '63',
    '0',
    '65.0',
    '1E2',
  ].map((text) => ({ value: new Raw(text), note: text })),
  ...[4001, 100_000].map((n) => ({ value: longString(n), note: `a string of ${n} chars` })),
  { value: '   ', note: 'blank string' },
  { value: new Raw('"\\ud800"'), note: 'lone high surrogate "\\ud800"' },
  { value: new Raw('"a red \\udc00 fox"'), note: 'lone low surrogate in text' },
  { value: new Raw('"\\udfff\\ud800"'), note: 'reversed surrogate pair' },
  { value: new Raw('"nul \\u0000 inside"'), note: 'NUL character' },
  { value: '🦊 fox, \u202eright-to-left', note: 'emoji and RTL override' },
  { value: "'; DROP TABLE images; --", note: 'SQL injection text' },
  { value: '../../etc/passwd', note: 'path traversal text' },
  ...[100, 1000, 5000, 20000].map((n) => ({ value: nestedArrays(n), note: `arrays nested ${n} deep` })),
  ...[1000, 5000].map((n) => ({ value: nestedObjects(n), note: `objects nested ${n} deep` })),
];

/** Extra odd values for a free-form record such as `metadata`: deep, wide, pollution-shaped, unrepresentable numbers. */
export const ODD_RECORDS: readonly { value: J; note: string }[] = [
  ...[100, 1000, 3000, 5000, 20000].map((n) => ({ value: new Obj([['deep', nestedArrays(n)]]), note: `a value of arrays nested ${n} deep` })),
  ...[1000, 5000].map((n) => ({ value: new Obj([['deep', nestedObjects(n)]]), note: `a value of objects nested ${n} deep` })),
  { value: new Obj([[new Raw('"\\ud800"'), new Raw('"\\udc00"')]]), note: 'lone surrogates as key and value' },
  { value: new Obj([['__proto__', new Obj([['polluted', true]])]]), note: '__proto__ key' },
  { value: new Obj([['constructor', new Obj([['prototype', new Obj([['polluted', true]])]])]]), note: 'constructor.prototype key' },
  {
    value: new Obj([
      ['big', new Raw('1e400')],
      ['huge_int', new Raw('9223372036854775808')],
      ['tiny', new Raw('-1e400')],
    ]),
    note: 'unrepresentable numbers',
  },
  { value: new Obj(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i] as const)), note: '5000 keys' },
  {
    value: new Obj([
      ['dup', 1],
      ['dup', 'two'],
    ]),
    note: 'duplicate keys',
  },
  { value: new Obj([['text', longString(900_000)]]), note: 'a 900,000-char string' },
];

const oddValue = (schema: Schema): fc.Arbitrary<{ value: J; note: string }> => {
  const odd = fc.constantFrom(...ODD_VALUES);
  const record = isObjectSchema(schema) && schema.properties === undefined;
  const outOfRange: { value: J; note: string }[] = [];
  if (schema.minimum !== undefined) outOfRange.push({ value: schema.minimum - 1, note: `${schema.minimum - 1} (minimum - 1)` });
  if (schema.maximum !== undefined) outOfRange.push({ value: schema.maximum + 1, note: `${schema.maximum + 1} (maximum + 1)` });
  if (schema.maxLength !== undefined)
    outOfRange.push({ value: longString(schema.maxLength + 1), note: `a string of maxLength + 1 = ${schema.maxLength + 1} chars` });
  if (typeOf(schema) === 'array') {
    outOfRange.push({ value: [], note: 'empty array' }, { value: Array.from({ length: 101 }, (_, i) => `prompt number ${i}`), note: '101 items' });
  }
  const options = [odd, ...(outOfRange.length > 0 ? [fc.constantFrom(...outOfRange)] : [])];
  if (record) options.push(fc.constantFrom(...ODD_RECORDS), fc.constantFrom(...ODD_RECORDS));
  return fc.oneof(...options);
};

const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'toString', 'Prompt', 'prompt ', '', 'width\u0000'];

/** A valid object with one thing broken: a field replaced by an odd value (at any depth), a required field dropped, or an unknown field added. */
export function mutatedObject(schema: Schema, op: Operation): fc.Arbitrary<{ value: Obj; note: string }> {
  const base = validObject(schema, op);
  const options: fc.WeightedArbitrary<{ value: Obj; note: string }>[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    // Free-form records (`metadata`) take anything, so they get more of the odd values.
    const weight = isObjectSchema(property) && property.properties === undefined ? 4 : 1;
    options.push({
      weight,
      arbitrary: fc.tuple(base, oddValue(property)).map(([object, odd]) => ({ value: object.with(name, odd.value), note: `${name} = ${odd.note}` })),
    });
    if (isObjectSchema(property) && property.properties !== undefined) {
      options.push({
        weight: 2,
        arbitrary: fc
          .tuple(base, mutatedObject(property, op))
          .map(([object, inner]) => ({ value: object.with(name, inner.value), note: `${name}: ${inner.note}` })),
      });
    }
  }
  for (const name of schema.required ?? [])
    options.push({ weight: 1, arbitrary: base.map((object) => ({ value: object.without(name), note: `without ${name}` })) });
  options.push({
    weight: 1,
    arbitrary: fc.tuple(base, fc.constantFrom(...EXTRA_KEYS), fc.constantFrom<J>(1, 'x', null, new Obj([]))).map(([object, key, value]) => ({
      value: new Obj([...object.entries, [key, value]]),
      note: `extra field ${JSON.stringify(key)}`,
    })),
  });
  return fc.oneof(...options);
}

/** Whole bodies that are not the object asked for. */
export const ODD_BODIES: readonly { body: J | undefined; note: string }[] = [
  { body: undefined, note: 'no body' },
  { body: new Raw(''), note: 'empty body' },
  { body: new Raw(' \n\t '), note: 'whitespace body' },
  { body: new Raw('null'), note: 'null' },
  { body: new Raw('[]'), note: 'empty array' },
  { body: new Raw('"a red fox"'), note: 'a JSON string' },
  { body: new Raw('42'), note: 'a number' },
  { body: new Raw('1e400'), note: 'an infinite number' },
  { body: new Raw('true'), note: 'true' },
  { body: new Raw('{'), note: 'truncated JSON' },
  { body: new Raw('{"prompt": "a red fox",'), note: 'truncated object' },
  { body: new Raw('prompt=a+red+fox&model=local%2Fprocedural'), note: 'form-encoded text' },
  { body: new Raw('{}}'), note: 'trailing brace' },
  { body: new Raw('{"a":1}{"b":2}'), note: 'two objects' },
  { body: new Raw("{'prompt': 'a red fox'}"), note: 'single quotes' },
  { body: new Raw('{"prompt":"a red fox"}\u0000'), note: 'trailing NUL' },
  { body: new Raw('NaN'), note: 'NaN' },
  { body: new Raw('"\\ud800"'), note: 'a lone surrogate string' },
  { body: new Raw('{}'), note: 'empty object' },
  { body: nestedArrays(5000), note: 'arrays nested 5000 deep' },
  { body: nestedArrays(100_000), note: 'arrays nested 100000 deep' },
  { body: nestedObjects(5000), note: 'objects nested 5000 deep' },
  { body: new Raw(`[${'1,'.repeat(200_000)}1]`, '[1,1,1,…] (200,001 numbers)'), note: 'a long array' },
  {
    body: new Raw(
      JSON.stringify({ prompt: 'a red fox', model: 'local/procedural', metadata: { blob: 'x'.repeat(1024 * 1024) } }),
      '{"prompt":"a red fox","model":"local/procedural","metadata":{"blob":"x"×1048576}}',
    ),
    note: 'over 1 MiB',
  },
];

/** Bodies for a POST/PUT operation: mostly a valid object with one mutation, sometimes a whole odd body. */
export function bodyArb(op: Operation, mutate: boolean): fc.Arbitrary<BodyChoice> {
  if (op.body === undefined) {
    // A bodiless action (batch cancel): no body or `{}` are its inputs.
    const valid = fc.constantFrom<BodyChoice>({ body: undefined }, { body: new Raw('{}') });
    return mutate ? fc.oneof(valid, fc.constantFrom(...ODD_BODIES)) : valid;
  }
  const schema = op.body;
  if (!mutate) return validObject(schema, op).map((body) => ({ body }));
  return fc.oneof(
    { weight: 6, arbitrary: mutatedObject(schema, op).map(({ value, note }) => ({ body: value, note })) },
    { weight: 1, arbitrary: validObject(schema, op).map((object) => ({ body: [object], note: 'an array holding a valid body' })) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_BODIES) },
  );
}

/**
 * Why this body must be refused by this operation, from its schema and the rules its descriptions state
 * (prompts 3..4000 characters after trimming, names not blank, models from the catalogue, ids that exist).
 */
export function bodyRefusal(op: Operation, body: J | undefined, catalogue: Catalogue): string | undefined {
  if (body === undefined) return op.body === undefined ? undefined : 'no body';
  const text = jsonText(body, placeholder);
  if (text.trim() === '') return op.body === undefined ? undefined : 'empty body';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  if (op.body === undefined) return undefined;
  const reason = violation(op.body, parsed, 'body');
  if (reason !== undefined) return reason;
  return domainRefusal(op, parsed as Record<string, unknown>, catalogue);
}

const PLACEHOLDERS = { template: new Set(['{{template}}', '{{sampleTemplate}}']), image: new Set(['{{image}}']) };

function domainRefusal(op: Operation, body: Record<string, unknown>, catalogue: Catalogue): string | undefined {
  const badPrompt = (value: unknown) => typeof value === 'string' && (value.trim().length < 3 || value.trim().length > 4000);
  const has = (name: string) => Object.hasOwn(body, name);
  if (has('name') && typeof body.name === 'string' && body.name.trim() === '') return 'name is blank';
  switch (op.key) {
    case 'POST /api/generate':
    case 'POST /api/batch/create':
    case 'POST /api/batch/generate': {
      if (badPrompt(body.prompt)) return 'prompt is not 3..4000 characters after trimming';
      if (Array.isArray(body.prompts)) {
        if (body.prompts.length === 0 || body.prompts.length > 100) return 'a batch holds 1..100 prompts';
        if (body.prompts.some(badPrompt)) return 'a prompt is not 3..4000 characters after trimming';
      }
      if (has('template_id') && !PLACEHOLDERS.template.has(String(body.template_id))) return 'no such template';
      // Without model or template_id, DEFAULT_MODEL (local/procedural here) is used.
      if (!has('template_id') && op.key === 'POST /api/generate' && !has('prompt')) return 'prompt is required without template_id';
      if (has('model') && !catalogue.available.has(String(body.model))) return 'model is not available';
      return undefined;
    }
    case 'POST /api/templates':
    case 'PUT /api/templates/{id}':
      if (badPrompt(body.default_prompt)) return 'default_prompt is not 3..4000 characters after trimming';
      if (has('model') && !catalogue.known.has(String(body.model))) return 'model is not in the catalogue';
      return undefined;
    case 'POST /api/collections/{id}/images':
      return PLACEHOLDERS.image.has(String(body.image_id)) ? undefined : 'no such image';
    case 'POST /api/keys': {
      const enterprise = body.plan === 'enterprise';
      if (enterprise && !has('rate_limit')) return 'enterprise keys need rate_limit';
      if (!enterprise && has('rate_limit')) return 'rate_limit is for enterprise keys only';
      return undefined;
    }
    default:
      return undefined;
  }
}

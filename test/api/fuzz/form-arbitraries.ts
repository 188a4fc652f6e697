/**
 * Bodies and Content-Types for operations whose request body is multipart/form-data, read from the schema alone
 * (files where a field is `format: binary`, text values from the JSON arbitraries), and why one must be refused.
 */
import fc from 'fast-check';
import { ODD_BODIES, validObject, validValue, type BodyChoice } from './bodies.js';
import { FilePart, Form, formFileBytes, MALFORMATIONS, BOUNDARY, type FormValue } from './form.js';
import { Fixture, fromPlain, jsonText, placeholder, Raw, type J } from './json-text.js';
import { typeOf, violation, type FormField, type FormSchema, type Operation, type Schema } from './openapi.js';
import type { ContentTypeChoice } from './request.js';
import { IMAGE_SAMPLES, NOT_IMAGE_SAMPLES, SAMPLES, type SampleName } from './samples.js';

/** The largest file the document allows (POST /api/uploads: "up to 50 MB"). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

// ---- Content-Types ---------------------------------------------------------------------------------------------

export const MULTIPART_CT: ContentTypeChoice = { header: `multipart/form-data; boundary=${BOUNDARY}`, kind: 'canonical' };
/** The same media type and boundary (RFC 9110 §8.3.1: type and parameter names are case-insensitive, OWS around `;`, a quoted value). */
const EQUIVALENT_CTS: ContentTypeChoice[] = [
  `multipart/form-data;boundary=${BOUNDARY}`,
  `MULTIPART/FORM-DATA; boundary=${BOUNDARY}`,
  `Multipart/Form-Data; Boundary=${BOUNDARY}`,
  `multipart/form-data; boundary="${BOUNDARY}"`,
  `multipart/form-data;\tboundary=${BOUNDARY}`,
  // Found by this fuzz: @hono/zod-openapi's media-type gate allows at most one space after `;` and none before it;
  // the multipart middleware now hands it the plain form, as the JSON one does.
  `multipart/form-data ; boundary=${BOUNDARY}`,
  `multipart/form-data;  boundary=${BOUNDARY}`,
].map((header) => ({ header, kind: 'equivalent' }));
/** Not the body's media type, or no boundary, or another one. */
const OTHER_CTS: ContentTypeChoice[] = [
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="',
  `multipart/form-data; boundary=${BOUNDARY}x`,
  'multipart/form-data; boundary=something-else',
  `multipart/mixed; boundary=${BOUNDARY}`,
  `form-data; boundary=${BOUNDARY}`,
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  '',
].map((header) => ({ header, kind: 'other' }));
const MISSING: ContentTypeChoice = { header: null, kind: 'missing' };

export const okMultipartCt = fc.oneof({ weight: 5, arbitrary: fc.constant(MULTIPART_CT) }, { weight: 2, arbitrary: fc.constantFrom(...EQUIVALENT_CTS) });
export const anyMultipartCt = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...EQUIVALENT_CTS) },
  { weight: 4, arbitrary: fc.constantFrom(...OTHER_CTS) },
  { weight: 1, arbitrary: fc.constant(MISSING) },
);

// ---- Values ----------------------------------------------------------------------------------------------------

/** A JSON value as the text a form field carries. */
const asText = (value: J): string | Fixture => (value instanceof Fixture ? value : typeof value === 'string' ? value : jsonText(value, placeholder));

const BASENAMES = ['photo', 'IMG_0001', 'mask', 'holiday/beach', 'ünïcödé'];
const validFile = fc
  .tuple(fc.constantFrom(...IMAGE_SAMPLES), fc.constantFrom(...BASENAMES))
  .map(([sample, base]) => new FilePart({ sample }, `${base}.${SAMPLES[sample].extension}`, SAMPLES[sample].type));

/** A field's parts when valid: a file, 1..3 files, or its text value(s). */
function validParts(field: FormField, op: Operation): fc.Arbitrary<FormValue[]> {
  if (field.kind === 'one') return validFile.map((file) => [file]);
  if (field.kind === 'many') return fc.array(validFile, { minLength: 1, maxLength: Math.min(3, maxItems(field.schema) ?? 3) });
  if (typeOf(field.schema) === 'array')
    return validValue(field.schema, field.name, op).map((items) => (Array.isArray(items) ? (items as J[]).map(asText) : [asText(items as J)]));
  return validValue(field.schema, field.name, op).map((value) => [asText(value)]);
}

const maxItems = (schema: Schema): number | undefined =>
  [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((s) => s.maxItems !== undefined)?.maxItems;

/** Every required field, and some optional ones, in document order. */
export function validForm(form: FormSchema, op: Operation): fc.Arbitrary<Form> {
  const parts = form.fields.map((field) => (field.required ? validParts(field, op) : fc.option(validParts(field, op), { nil: undefined, freq: 2 })));
  return fc.tuple(fc.constantFrom<Form['encoder']>('formdata', 'hand'), ...parts).map(
    ([encoder, ...values]) =>
      new Form(
        form.fields.flatMap((field, i) => (values[i] ?? []).map((value) => [field.name, value] as const)),
        encoder,
      ),
  );
}

const ODD_TEXTS = [
  '',
  '   ',
  'a'.repeat(4001),
  'a'.repeat(100_000),
  'nul \u0000 inside',
  '🦊 fox, \u202eright-to-left',
  "'; DROP TABLE images; --",
  '../../etc/passwd',
  '0',
  '-1',
  '2.5',
  '1e400',
  '11',
  '9223372036854775808',
  'abc',
  'null',
  'true',
  '{"a":1}',
  '["x"]',
];
const ODD_FILENAMES = [
  '../../etc/passwd',
  `${'a'.repeat(300)}.png`,
  'nul\u0000.png',
  'tab\tand\r\nnewline.png',
  '🦊.png',
  '',
  'C:\\Users\\me\\photo.png',
  'x"; name="other',
  '\u202Egnp.exe',
  '.png',
];
const ODD_FILE_TYPES = ['text/plain', 'application/octet-stream', 'image/gif', 'image/png; charset=utf-8', ''];
const WRONG_NAMES = (name: string) => [
  `${name}[]`,
  name.toUpperCase(),
  `${name}s`,
  ` ${name}`,
  `${name}\u0000`,
  '',
  '__proto__',
  'constructor',
  'toString',
  'a'.repeat(300),
];

const badFile: fc.Arbitrary<{ file: FilePart; note: string }> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...NOT_IMAGE_SAMPLES).map((sample: SampleName) => ({
      file: new FilePart({ sample }, `upload.${SAMPLES[sample].extension}`, SAMPLES[sample].type),
      note: SAMPLES[sample].label,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((bytes) => new Uint8Array(bytes))
      .map((random) => ({ file: new FilePart({ random }, 'random.png', 'image/png'), note: `${random.length} random bytes` })),
  },
  {
    weight: 1,
    arbitrary: validFile.map((file) => ({ file: new FilePart(file.content, null, file.type), note: 'an image part without a filename (a text field)' })),
  },
);

/** Files larger than the document allows: one just over it, and a body over the request limit. Rare: each is ~50 MB. */
const hugeFile = fc
  .constantFrom(MAX_FILE_BYTES + 1, MAX_FILE_BYTES + 2 * 1024 * 1024)
  .map((size) => ({ file: new FilePart({ zeros: size }, 'huge.png', 'image/png'), note: `a file of ${size.toLocaleString('en-US')} bytes` }));

type Mutation = { form: Form; note: string };

/** A valid form with one thing broken. */
export function mutatedForm(form: FormSchema, op: Operation): fc.Arbitrary<Mutation> {
  const base = validForm(form, op);
  const replace = (f: Form, name: string, value: FormValue) => {
    const at = f.parts.findIndex(([n]) => n === name);
    return new Form(at === -1 ? [...f.parts, [name, value]] : f.parts.map((part, i) => (i === at ? [name, value] : part)), f.encoder);
  };
  const options: fc.WeightedArbitrary<Mutation>[] = [];
  for (const field of form.fields) {
    const { name } = field;
    if (field.kind !== 'text') {
      options.push({ weight: 6, arbitrary: fc.tuple(base, badFile).map(([f, bad]) => ({ form: replace(f, name, bad.file), note: `${name} = ${bad.note}` })) });
      options.push({
        weight: 1,
        arbitrary: fc
          .tuple(base, fc.constantFrom('a red fox', 'https://example.com/a.png', '', 'iVBORw0KGgo='))
          .map(([f, text]) => ({ form: replace(f, name, text), note: `${name} = the text ${JSON.stringify(text)}` })),
      });
      options.push({
        weight: 2,
        arbitrary: fc
          .tuple(base, fc.constantFrom(...ODD_FILENAMES), fc.constantFrom<string | null>(null, ...ODD_FILE_TYPES), validFile)
          .map(([f, filename, type, file]) => ({
            form: replace(f, name, new FilePart(file.content, filename, type ?? file.type)),
            note: `${name} named ${JSON.stringify(filename)}${type === null ? '' : `, typed ${JSON.stringify(type)}`}`,
          })),
      });
      options.push({
        weight: 1,
        arbitrary: fc.tuple(base, hugeFile).map(([f, huge]) => ({ form: replace(f, name, huge.file), note: `${name} = ${huge.note}` })),
      });
      options.push({
        weight: 2,
        arbitrary: fc.tuple(base, validFile, fc.integer({ min: 2, max: 20 })).map(([f, file, n]) => ({
          form: new Form([...f.parts.filter(([p]) => p !== name), ...Array.from({ length: n }, () => [name, file] as const)], f.encoder),
          note: `${name} sent ${n} times`,
        })),
      });
    } else {
      const odd = [...ODD_TEXTS, ...outOfRange(field.schema)];
      options.push({
        weight: 3,
        arbitrary: fc.tuple(base, fc.constantFrom(...odd)).map(([f, text]) => ({
          form: replace(f, name, text),
          note: `${name} = ${JSON.stringify(text.length > 40 ? `${text.slice(0, 8)}…(${text.length} chars)` : text)}`,
        })),
      });
      options.push({ weight: 1, arbitrary: fc.tuple(base, validFile).map(([f, file]) => ({ form: replace(f, name, file), note: `${name} = a file` })) });
      options.push({
        weight: 1,
        arbitrary: fc.tuple(base, validParts(field, op)).map(([f, more]) => ({
          form: new Form([...f.parts, ...more.map((v) => [name, v] as const), ...more.map((v) => [name, v] as const)], f.encoder),
          note: `${name} repeated`,
        })),
      });
    }
    options.push({
      weight: field.required ? 2 : 1,
      arbitrary: base.map((f) => ({
        form: new Form(
          f.parts.filter(([n]) => n !== name),
          f.encoder,
        ),
        note: `without ${name}`,
      })),
    });
    options.push({
      weight: 2,
      arbitrary: fc.tuple(base, fc.constantFrom(...WRONG_NAMES(name))).map(([f, wrong]) => ({
        form: new Form(
          f.parts.map(([n, v]) => [n === name ? wrong : n, v] as const),
          f.encoder,
        ),
        note: `${name} sent as ${JSON.stringify(wrong.length > 40 ? `${wrong.slice(0, 8)}…` : wrong)}`,
      })),
    });
  }
  options.push({
    weight: 2,
    arbitrary: fc
      .tuple(
        base,
        fc.constantFrom('extra', 'metadata', 'purpose', '_charset_'),
        fc.oneof(
          validFile,
          badFile.map((b) => b.file),
          fc.constant('x'),
        ),
      )
      .map(([f, name, value]) => ({ form: new Form([...f.parts, [name, value]], f.encoder), note: `an extra field ${name}` })),
  });
  options.push({ weight: 1, arbitrary: fc.constant({ form: new Form([]), note: 'a form without parts' }) });
  options.push({
    weight: 4,
    arbitrary: fc
      .tuple(base, fc.constantFrom(...MALFORMATIONS))
      .map(([f, broken]) => ({ form: new Form(f.parts.length > 0 ? f.parts : [['note', 'x']], 'hand', broken), note: `broken: ${broken}` })),
  });
  return fc.oneof(...options);
}

const outOfRange = (schema: Schema): string[] => {
  const out: string[] = [];
  if (schema.minimum !== undefined) out.push(String(schema.minimum - 1));
  if (schema.maximum !== undefined) out.push(String(schema.maximum + 1));
  if (schema.maxLength !== undefined) out.push('a'.repeat(schema.maxLength + 1));
  if (schema.enum !== undefined)
    out.push(
      ...schema.enum.filter((v) => typeof v === 'string').map((v) => ((v as string).toUpperCase() === v ? `${v as string}x` : (v as string).toUpperCase())),
    );
  return out;
};

export function formBodyArb(form: FormSchema, op: Operation, mutate: boolean): fc.Arbitrary<BodyChoice> {
  if (!mutate) return validForm(form, op).map((body) => ({ body }));
  return mutatedForm(form, op).map(({ form: body, note }) => ({ body, note }));
}

/** Bodies that are no form at all, for a multipart operation: its fields as JSON, odd JSON, nothing. */
export function notFormBodyArb(form: FormSchema, op: Operation): fc.Arbitrary<BodyChoice> {
  return fc.oneof(
    { weight: 2, arbitrary: validObject(form.schema, op).map((body): BodyChoice => ({ body, note: 'the form fields as JSON' })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value): BodyChoice => ({ body: fromPlain(value), note: 'a JSON value' })) },
    { weight: 2, arbitrary: fc.constantFrom<BodyChoice>(...ODD_BODIES, { body: new Raw(`--${BOUNDARY}--\r\n`), note: 'a closing delimiter only' }) },
  );
}

// ---- Refusals --------------------------------------------------------------------------------------------------

/** Why a text value breaks the field's schema; numbers only when the text is plainly one or plainly not one. */
function textViolation(field: FormField, text: string): string | undefined {
  const schema = typeOf(field.schema) === 'array' && field.schema.items !== undefined ? field.schema.items : field.schema;
  const type = typeOf(schema);
  if (type === 'string') return violation(schema, text, field.name);
  if (type === 'integer' || type === 'number') {
    if (/^-?\d+$/.test(text)) return violation(schema, Number(text), field.name);
    if (text.trim() !== '' && text !== 'null' && !/\d/.test(text)) return `${field.name} is not a number`;
  }
  return undefined;
}

/**
 * The names a field's parts may come under: a field of many files also as `name[]` (or `name` for `name[]`), the
 * convention of OpenAI's SDKs and of most form libraries, so a server that reads both is not taken for a lax one.
 */
const spellings = (field: FormField): string[] =>
  field.kind !== 'many' ? [field.name] : [field.name, field.name.endsWith('[]') ? field.name.slice(0, -2) : `${field.name}[]`];

/** Why this form must be refused by an operation whose body the schema `form` describes. */
export function formRefusals(form: FormSchema, body: Form): string[] {
  if (body.malformed !== undefined) return [`the body is broken: ${body.malformed}`];
  const reasons: string[] = [];
  for (const field of form.fields) {
    const names = spellings(field);
    const values = body.parts.filter(([name]) => names.includes(name)).map(([, value]) => value);
    if (values.length === 0) {
      if (field.required) reasons.push(`${field.name} is missing`);
      continue;
    }
    const isFile = (value: FormValue): value is FilePart => value instanceof FilePart && value.filename !== null;
    if (field.kind === 'text') {
      if (values.length > 1 && typeOf(field.schema) !== 'array') reasons.push(`${field.name} is sent ${values.length} times, not one value`);
      for (const value of values) {
        if (isFile(value)) reasons.push(`${field.name} is a file, not text`);
        else if (typeof value === 'string') {
          const reason = textViolation(field, value);
          if (reason !== undefined) reasons.push(reason);
        }
      }
      continue;
    }
    if (field.kind === 'one' && values.length > 1) reasons.push(`${field.name} holds ${values.length} files, its schema one`);
    const most = maxItems(field.schema);
    if (field.kind === 'many' && most !== undefined && values.length > most) reasons.push(`${field.name} holds more than ${most} files`);
    for (const value of values) {
      if (!isFile(value)) reasons.push(`${field.name} is a text field, not a file`);
      else if (!value.image) reasons.push(`${field.name} is not a whole PNG, JPEG or WebP (${value.describe()})`);
    }
  }
  if (form.schema.additionalProperties === false) {
    const known = new Set(form.fields.flatMap(spellings));
    for (const name of body.names()) if (!known.has(name)) reasons.push(`the unknown field ${JSON.stringify(name)}`);
  }
  if (formFileBytes(body) > MAX_FILE_BYTES) reasons.push('a file over 50 MB');
  return reasons;
}

/** Why a request to a multipart operation must be refused, from its Content-Type and body. */
export function multipartRefusals(form: FormSchema, contentType: ContentTypeChoice, body: BodyChoice['body']): string[] {
  if (!(body instanceof Form)) return ['the body is not a multipart form'];
  const reasons =
    contentType.kind === 'canonical' || contentType.kind === 'equivalent' ? [] : ['Content-Type is not multipart/form-data with the body’s boundary'];
  return [...reasons, ...formRefusals(form, body)];
}

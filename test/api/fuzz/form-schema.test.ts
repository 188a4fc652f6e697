/**
 * The fuzzer reads any multipart operation from its schema alone: here an OpenAI-style edits form (files under
 * `image` or `image[]`, a `mask`, text fields), as `POST /v1/images/edits` may document it, without that route.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FilePart, Form } from './form.js';
import { formRefusals, validForm } from './form-arbitraries.js';
import { operationsOf } from './openapi.js';

const binary = { type: 'string', format: 'binary' };
const doc = {
  paths: {
    '/v1/images/edits': {
      post: {
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['image', 'prompt'],
                properties: {
                  image: { anyOf: [binary, { type: 'array', items: binary, maxItems: 4 }] },
                  mask: binary,
                  prompt: { type: 'string', maxLength: 4000 },
                  n: { type: ['integer', 'null'], minimum: 1, maximum: 10 },
                  size: { type: 'string', pattern: '^(auto|[1-9]\\d{0,4}x[1-9]\\d{0,4})$' },
                  response_format: { type: 'string', enum: ['url', 'b64_json'] },
                },
              },
            },
          },
        },
      },
    },
  },
};

const [edits] = operationsOf(doc);
const form = edits?.form ?? { schema: {}, fields: [] };
const png = (name = 'a.png') => new FilePart({ sample: 'png' }, name, 'image/png');

describe('a multipart operation read from its schema', () => {
  it('tells files, repeated files and text fields apart', () => {
    expect(edits?.body).toBeUndefined();
    expect(form.fields.map(({ name, kind, required }) => ({ name, kind, required }))).toEqual([
      { name: 'image', kind: 'many', required: true },
      { name: 'mask', kind: 'one', required: false },
      { name: 'prompt', kind: 'text', required: true },
      { name: 'n', kind: 'text', required: false },
      { name: 'size', kind: 'text', required: false },
      { name: 'response_format', kind: 'text', required: false },
    ]);
  });

  it('expects no refusal of the forms it calls valid', () => {
    if (edits === undefined) throw new Error('no operation read');
    fc.assert(
      fc.property(validForm(form, edits), (body) => {
        expect(formRefusals(form, body)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('expects a refusal for what the schema rules out, and none for what it allows', () => {
    const ok: [string, string | FilePart][] = [
      ['image', png()],
      ['prompt', 'a red fox'],
    ];
    expect(formRefusals(form, new Form([...ok, ['image', png('b.png')], ['image[]', png('c.png')], ['n', '2'], ['extra', 'x']]))).toEqual([]);
    const refusals = (parts: [string, string | FilePart][]) => formRefusals(form, new Form(parts));
    expect(refusals([['prompt', 'a red fox']])).toEqual(['image is missing']);
    expect(refusals([...ok, ['mask', png()], ['mask', png()]])).toEqual(['mask holds 2 files, its schema one']);
    expect(refusals([...ok, ['mask', new FilePart({ sample: 'png-header-huge' }, 'm.png', 'image/png')]])).toEqual([
      expect.stringContaining('mask is not a whole PNG'),
    ]);
    expect(refusals([...ok, ['mask', new FilePart({ sample: 'png' }, null, 'image/png')]])).toEqual(['mask is a text field, not a file']);
    expect(refusals([...ok, ['image', png()], ['image', png()], ['image', png()], ['image', png()]])).toEqual(['image holds more than 4 files']);
    expect(refusals([...ok, ['n', '11']])).toEqual(['n is above 10']);
    expect(refusals([...ok, ['n', 'two']])).toEqual(['n is not a number']);
    expect(refusals([...ok, ['n', '2.0']])).toEqual([]);
    expect(refusals([...ok, ['size', '64 x 64']])).toEqual([expect.stringContaining('size does not match')]);
    expect(refusals([...ok, ['response_format', 'URL']])).toEqual([expect.stringContaining('response_format is not one of')]);
    expect(refusals([...ok, ['prompt', png()]])).toEqual(['prompt is sent 2 times, not one value', 'prompt is a file, not text']);
    expect(formRefusals(form, new Form(ok, 'hand', 'no closing delimiter'))).toEqual(['the body is broken: no closing delimiter']);
  });
});

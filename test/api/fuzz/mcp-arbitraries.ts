import fc from 'fast-check';
import { ODD_RECORDS, ODD_VALUES } from './bodies.js';
import { Fixture, Obj, Raw, type J } from './json-text.js';

/** One generated tools/call: the tool, its arguments (valid or with one thing broken) and what must refuse it. */
export interface McpCall {
  tool: string;
  args: J;
  /** Why this call must be a tool error (empty when it may succeed). */
  refuse: readonly string[];
  notes: readonly string[];
}

/** What one POST /mcp carries: a single tools/call, or a JSON-RPC batch of them (which must be refused). */
export type McpMessage = { kind: 'single'; call: McpCall } | { kind: 'batch'; calls: readonly McpCall[] };

const prompt = fc.constantFrom('a red fox in fresh snow', 'lighthouse on a cliff at sunset', 'foggy harbour at night');
const small = fc.constantFrom(64, 96, 128);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const obj = (fields: Record<string, J | undefined>) => new Obj(Object.entries(fields).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as const])));

/** Valid arguments for each tool, on the run's fixtures; `local/procedural` keeps generating offline and free. */
const VALID: Record<string, fc.Arbitrary<Obj>> = {
  generate_image: fc.record({ prompt, width: small, height: small, seed: opt(fc.nat(1000)) }).map((a) => obj({ ...a, model: 'local/procedural' })),
  list_images: fc
    .record({ limit: opt(fc.integer({ min: 1, max: 100 })), query: opt(fc.constantFrom('fox', 'harbour', '')), model: opt(fc.constant('local/procedural')) })
    .map(obj),
  get_image: fc.constant(obj({ id: new Fixture('image') })),
  delete_image: fc.constant(obj({ id: new Fixture('image') })),
  list_models: fc.record({ available_only: opt(fc.boolean()) }).map(obj),
  create_collection: fc.record({ name: fc.constantFrom('Moodboard', 'Spring campaign'), description: opt(fc.constant('ideas')) }).map(obj),
  add_to_collection: fc.constant(obj({ collection_id: new Fixture('collection'), image_id: new Fixture('image') })),
  create_batch: fc.array(prompt, { minLength: 1, maxLength: 3 }).map((prompts) => obj({ prompts, model: 'local/procedural', width: 64, height: 64 })),
  get_batch: fc.constant(obj({ id: new Fixture('batch') })),
  get_costs: fc.record({ from: opt(fc.constant('2026-11-01')), to: opt(fc.constant('2026-12-01')) }).map(obj),
};
export const TOOL_NAMES = Object.keys(VALID);

/** Text no database can store, and so no tool may accept in any string argument. */
const UNSTORABLE = [
  { value: new Raw('"nul \\u0000 inside"'), note: 'NUL character' },
  { value: new Raw('"\\ud800"'), note: 'lone high surrogate' },
  { value: new Raw('"a red \\udc00 fox"'), note: 'lone low surrogate in text' },
];
const ODD = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.constantFrom(...ODD_RECORDS));

function mutated(tool: string, valid: Obj): fc.Arbitrary<McpCall> {
  const keys = valid.keys();
  const field = keys.length === 0 ? fc.constant('extra') : fc.constantFrom(...keys);
  return fc.oneof(
    // A string argument made unstorable: always refused.
    fc
      .tuple(field, fc.constantFrom(...UNSTORABLE))
      .map(([k, odd]) => ({ tool, args: valid.with(k, odd.value), refuse: [`${k} is ${odd.note}`], notes: [`${k} = ${odd.note}`] })),
    // Any odd value (wrong type, huge, deep): refused or not, never a 5xx and nothing stored when refused.
    fc.tuple(field, ODD).map(([k, odd]) => ({ tool, args: valid.with(k, odd.value), refuse: [], notes: [`${k} = ${odd.note}`] })),
    // An unknown argument is refused as /api refuses an unknown field; a `__proto__` key never reaches the tool
    // (the SDK's message parsing drops it, polluting nothing), so it may pass.
    fc.constantFrom('extra', '__proto__', 'Prompt', 'width\u0000').map((k) => ({
      tool,
      args: valid.with(k, 1),
      refuse: k === '__proto__' ? [] : [`${k} is not an argument of ${tool}`],
      notes: [`extra argument ${JSON.stringify(k)}`],
    })),
    ODD.map((odd) => ({ tool, args: odd.value, refuse: [], notes: [`arguments = ${odd.note}`] })),
  );
}

const callArb: fc.Arbitrary<McpCall> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(...TOOL_NAMES)
      .chain((tool) => (VALID[tool] ?? fc.constant(obj({}))).map((args): McpCall => ({ tool, args, refuse: [], notes: [] }))),
  },
  { weight: 6, arbitrary: fc.constantFrom(...TOOL_NAMES).chain((tool) => (VALID[tool] ?? fc.constant(obj({}))).chain((valid) => mutated(tool, valid))) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('make_video', 'generate_image ', 'Generate_Image', '\u0000', '')
      .map((tool): McpCall => ({ tool, args: obj({}), refuse: ['no such tool'], notes: [`tool ${JSON.stringify(tool)}`] })),
  },
);

export const messageArb: fc.Arbitrary<McpMessage> = fc.oneof(
  { weight: 8, arbitrary: callArb.map((call): McpMessage => ({ kind: 'single', call })) },
  { weight: 2, arbitrary: fc.array(callArb, { minLength: 1, maxLength: 5 }).map((calls): McpMessage => ({ kind: 'batch', calls })) },
);

/**
 * A JSON value model for the fuzzer: plain JSON plus raw JSON text (for what `JSON.stringify` cannot write:
 * `1e400`, `9223372036854775808`, `"\ud800"` escapes, 5,000 levels of nesting, duplicate or `__proto__` keys)
 * and references to per-run fixtures (ids that exist only once the run's harness has made them).
 */

/** Names of the things every run creates before fuzzing, referred to symbolically in generated requests. */
export type FixtureName = 'image' | 'imageKey' | 'collection' | 'template' | 'sampleTemplate' | 'batch' | 'readKeyId' | 'adminKey' | 'readKey';

/** Raw JSON text, written as is. `label` is what a report shows instead of very long text. */
export class Raw {
  constructor(
    readonly text: string,
    readonly label?: string,
  ) {}
}

/** A fixture's id (a JSON string once resolved). */
export class Fixture {
  constructor(readonly name: FixtureName) {}
}

/** An object as ordered entries, so `__proto__`, duplicate and raw (`"\ud800"`) keys survive. */
export class Obj {
  constructor(readonly entries: readonly (readonly [string | Raw, J])[]) {}

  get(key: string): J | undefined {
    return this.entries.find(([k]) => k === key)?.[1];
  }

  keys(): string[] {
    return this.entries.flatMap(([k]) => (typeof k === 'string' ? [k] : []));
  }

  with(key: string, value: J): Obj {
    const index = this.entries.findIndex(([k]) => k === key);
    if (index === -1) return new Obj([...this.entries, [key, value]]);
    return new Obj(this.entries.map((entry, i) => (i === index ? [key, value] : entry)));
  }

  without(key: string): Obj {
    return new Obj(this.entries.filter(([k]) => k !== key));
  }
}

export type J = null | boolean | number | string | readonly J[] | Obj | Raw | Fixture;

export type Resolve = (name: FixtureName) => string;

/** The placeholder a report shows for a fixture. */
export const placeholder: Resolve = (name) => `{{${name}}}`;

const DISPLAY_STRING_MAX = 80;
const DISPLAY_RAW_MAX = 120;

/** JSON text of `value`; with `display`, long strings and raw text are abbreviated for reports. */
export function jsonText(value: J, resolve: Resolve, display = false): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return display ? abbreviateString(value) : JSON.stringify(value);
  if (value instanceof Raw) {
    if (!display || value.text.length <= DISPLAY_RAW_MAX) return value.text;
    return value.label ?? abbreviate(value.text, DISPLAY_RAW_MAX);
  }
  if (value instanceof Fixture) return JSON.stringify(resolve(value.name));
  if (value instanceof Obj) {
    const parts = value.entries.map(([key, item]) => `${key instanceof Raw ? key.text : JSON.stringify(key)}:${jsonText(item, resolve, display)}`);
    return `{${parts.join(',')}}`;
  }
  return `[${value.map((item) => jsonText(item, resolve, display)).join(',')}]`;
}

function abbreviateString(value: string): string {
  if (value.length <= DISPLAY_STRING_MAX) return JSON.stringify(value);
  const head = value.slice(0, 24);
  const repeated = value === value[0]!.repeat(value.length);
  return repeated ? `${JSON.stringify(value[0])}×${value.length}` : `${JSON.stringify(head).slice(0, -1)}…" (${value.length} chars)`;
}

/** `text` cut to about `max` characters, saying how much was left out. */
export function abbreviate(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.floor((max - 20) / 2);
  return `${text.slice(0, keep)}…(${text.length - 2 * keep} more chars)…${text.slice(-keep)}`;
}

/** `[[[…]]]` nested `depth` levels deep, as raw text with a short label. */
export function nestedArrays(depth: number, inner = ''): Raw {
  return new Raw('['.repeat(depth) + inner + ']'.repeat(depth), `[[[…${inner}…]]] (arrays nested ${depth} deep)`);
}

/** `{"a":{"a":…1…}}` nested `depth` levels deep, as raw text with a short label. */
export function nestedObjects(depth: number): Raw {
  return new Raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth), `{"a":{"a":…1…}} (objects nested ${depth} deep)`);
}

/** A plain JSON-compatible JS value (as fast-check's jsonValue makes) in the fuzzer's model. */
export function fromPlain(value: unknown): J {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? new Raw('-0') : value) : null;
  if (Array.isArray(value)) return value.map(fromPlain);
  if (typeof value === 'object') return new Obj(Object.entries(value).map(([k, v]) => [k, fromPlain(v)] as const));
  return null;
}

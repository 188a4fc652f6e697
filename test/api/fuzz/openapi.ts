/** The part of an OpenAPI 3.1 document the fuzzer reads: operations, their parameters, JSON and multipart bodies. */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** Upper case, e.g. `POST`. */
  method: string;
  /** The document's template, e.g. `/api/collections/{id}/images`. */
  path: string;
  parameters: Parameter[];
  /** The `application/json` request body schema, with `$ref`s resolved. */
  body: Schema | undefined;
  /** The `multipart/form-data` request body, its fields read from the schema; undefined for other operations. */
  form: FormSchema | undefined;
  /** `METHOD path`, the key the coverage count uses. */
  key: string;
}

/** One field of a multipart form. */
export interface FormField {
  name: string;
  schema: Schema;
  required: boolean;
  /**
   * `one`: a single file (`type: string, format: binary`); `many`: files repeated under the name (an array of
   * binaries, or a choice that allows one); `text`: a text value, read by its schema.
   */
  kind: 'one' | 'many' | 'text';
}

export interface FormSchema {
  schema: Schema;
  fields: FormField[];
}

interface Document {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** Every path × method of the document, in document order. */
export function operationsOf(document: unknown): Operation[] {
  const doc = document as Document;
  const components = doc.components?.schemas ?? {};
  const resolve = (schema: Schema, seen: readonly string[] = []): Schema => {
    if (schema.$ref !== undefined) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      const target = components[name];
      if (target === undefined || seen.includes(name)) throw new Error(`unresolvable $ref ${schema.$ref}`);
      return resolve(target, [...seen, name]);
    }
    const out: Schema = { ...schema };
    if (schema.properties !== undefined) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, seen)]));
    }
    if (schema.items !== undefined) out.items = resolve(schema.items, seen);
    if (typeof schema.additionalProperties === 'object') out.additionalProperties = resolve(schema.additionalProperties, seen);
    if (schema.anyOf !== undefined) out.anyOf = schema.anyOf.map((s) => resolve(s, seen));
    if (schema.oneOf !== undefined) out.oneOf = schema.oneOf.map((s) => resolve(s, seen));
    return out;
  };

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const formSchema = op.requestBody?.content?.['multipart/form-data']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(p.schema ?? {}) })),
        body: bodySchema === undefined ? undefined : resolve(bodySchema),
        form: formSchema === undefined ? undefined : formOf(resolve(formSchema)),
        key: `${method.toUpperCase()} ${path}`,
      });
    }
  }
  return operations;
}

const isBinary = (schema: Schema): boolean => typeOf(schema) === 'string' && schema.format === 'binary';

/** How a form field carries files, from its schema alone (see FormField.kind). */
function fieldKind(schema: Schema): FormField['kind'] {
  const choices = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (choices.some((choice) => typeOf(choice) === 'array' && choice.items !== undefined && fieldKind(choice.items) !== 'text')) return 'many';
  return choices.some(isBinary) ? 'one' : 'text';
}

function formOf(schema: Schema): FormSchema {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, field]): FormField => ({
    name,
    schema: field,
    required: required.has(name),
    kind: fieldKind(field),
  }));
  return { schema, fields };
}

export const typeOf = (schema: Schema): string | undefined => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

export const isObjectSchema = (schema: Schema): boolean => typeOf(schema) === 'object' || schema.properties !== undefined;

/** Whether `value` (a parsed JSON value) breaks `schema`; the reason if it does. Zod's `int` means a safe integer. */
export function violation(schema: Schema, value: unknown, where: string): string | undefined {
  // OpenAPI 3.1's nullable: `type: ['string', 'null']` (the OpenAI-compatible body takes null as "not given").
  if (value === null && Array.isArray(schema.type) && schema.type.includes('null')) return undefined;
  if (schema.enum !== undefined && !schema.enum.includes(value)) return `${where} is not one of ${JSON.stringify(schema.enum)}`;
  const type = typeOf(schema);
  switch (type) {
    case 'integer':
    case 'number': {
      if (typeof value !== 'number') return `${where} is not a number`;
      if (!Number.isFinite(value)) return `${where} is not finite`;
      if (type === 'integer' && !Number.isSafeInteger(value)) return `${where} is not a (safe) integer`;
      if (schema.minimum !== undefined && value < schema.minimum) return `${where} is below ${schema.minimum}`;
      if (schema.maximum !== undefined && value > schema.maximum) return `${where} is above ${schema.maximum}`;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return `${where} is not a string`;
      // The app trims some fields before measuring them, so lengths only count for strings without outer whitespace.
      const measurable = value === value.trim();
      if (measurable && schema.maxLength !== undefined && value.length > schema.maxLength) return `${where} is longer than ${schema.maxLength}`;
      if (measurable && schema.minLength !== undefined && value.length < schema.minLength) return `${where} is shorter than ${schema.minLength}`;
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return `${where} does not match ${schema.pattern}`;
      if (schema.format === 'uri' && !/^https?:\/\/[^\s/]+/i.test(value)) return `${where} is not an http(s) URL`;
      if (schema.format === 'date-time' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value))
        return `${where} is not a date-time`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${where} is not a boolean`;
    case 'array': {
      if (!Array.isArray(value)) return `${where} is not an array`;
      if (schema.minItems !== undefined && value.length < schema.minItems) return `${where} has fewer than ${schema.minItems} items`;
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${where} has more than ${schema.maxItems} items`;
      if (schema.items === undefined) return undefined;
      for (const [i, item] of value.entries()) {
        const reason = violation(schema.items, item, `${where}[${i}]`);
        if (reason !== undefined) return reason;
      }
      return undefined;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where} is not an object`;
      const record = value as Record<string, unknown>;
      for (const name of schema.required ?? []) if (!Object.hasOwn(record, name)) return `${where}.${name} is missing`;
      for (const [name, item] of Object.entries(record)) {
        const property = schema.properties !== undefined && Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
        if (property !== undefined) {
          const reason = violation(property, item, `${where}.${name}`);
          if (reason !== undefined) return reason;
        } else if (schema.additionalProperties === false) {
          return `${where} has the unknown field ${JSON.stringify(name)}`;
        }
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/** The part of /openapi.json the walk reads. */
export interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

/** `GET /api/images/{id}` */
export type OperationKey = string;

export const operationKeys = (doc: Document): OperationKey[] =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

/**
 * Validates answers against a document's response schemas (JSON Schema 2020-12, as OpenAPI 3.1 writes them).
 * `$ref`s into `#/components` are resolved inside the document. OpenAPI's own keywords (`example`, `format:
 * binary`) are not JSON Schema's and are ignored.
 */
export function responseValidator(doc: Document, name: string): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const rewrite = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('"#/components/', `"${name}#/components/`)) as unknown;
  ajv.addSchema({ $id: name, components: rewrite(doc.components) });
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    const known = compiled.get(key);
    if (known !== undefined) return known;
    const validate = ajv.compile(rewrite(schema) as object);
    compiled.set(key, validate);
    return validate;
  };
}

export interface Answer {
  operation: OperationKey;
  /** What was sent, for the failure message. */
  sent: string;
  status: number;
  contentType: string;
  body: unknown;
}

/** Every answer's status is declared for its operation, and its JSON body matches the declared schema. */
export function expectDeclared(doc: Document, validatorFor: (schema: unknown) => ValidateFunction, answer: Answer): void {
  const [method = '', path = ''] = answer.operation.split(' ');
  const responses = doc.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  const declared = responses[String(answer.status)];
  expect(
    declared,
    `${answer.sent} answered ${answer.status}, which ${answer.operation} does not declare (it declares ${Object.keys(responses).join(', ')})`,
  ).toBeDefined();
  const mediaType = answer.contentType.split(';')[0]?.trim() ?? '';
  const content = declared?.content?.[mediaType];
  expect(content, `${answer.sent} answered ${answer.status} as ${mediaType}, which ${answer.operation} does not declare`).toBeDefined();
  if (mediaType !== 'application/json' || content === undefined) return;
  const validate = validatorFor(content.schema);
  expect(
    validate(answer.body),
    `${answer.sent} answered ${answer.status} with a body that does not match: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
  ).toBe(true);
}

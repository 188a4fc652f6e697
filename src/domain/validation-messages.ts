import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

/**
 * Zod's own messages ("Too big: expected number to be <=2048") name a type system, not what to send.
 * This map words every standard issue as the end of a sentence whose subject is the field
 * (`must be at most 2048 (got 4096)`); `describeIssue` puts the field in front. A message a schema
 * states itself (`name must not be empty`) wins over this map, as zod resolves it.
 */
export function installValidationMessages(): void {
  z.config({ customError: phrase });
}

export function phrase(issue: Issue): string | undefined {
  const got = describeValue(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${article(issue.expected)} (got ${got})`;
    case 'too_big':
      return `must ${bound(issue.origin, issue.maximum, issue.inclusive === true ? 'at most' : 'less than')}${gotSize(issue.origin, issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      return `must ${bound(issue.origin, issue.minimum, issue.inclusive === true ? 'at least' : 'more than')}${gotSize(issue.origin, issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])} (got ${got})`
        : `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')} (got ${got})`;
    case 'invalid_format':
      return `must be ${article(FORMAT_NAMES[issue.format] ?? issue.format)} (got ${got})`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)} (got ${got})`;
    case 'unrecognized_keys':
      return `is not a parameter of this endpoint; remove ${issue.keys.map((key) => JSON.stringify(key)).join(', ')} (see /docs for the accepted fields)`;
    case 'invalid_union':
      return `has the wrong form (got ${got}); see /docs for the accepted shapes`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an element that is not allowed';
    default:
      return undefined;
  }
}

const FORMAT_NAMES: Record<string, string> = {
  url: 'absolute URL',
  datetime: 'ISO 8601 timestamp (2026-11-01T12:00:00Z)',
  date: 'date (2026-11-01)',
  email: 'email address',
  regex: 'value of the documented form',
};

function bound(origin: string, limit: number | bigint, relation: string): string {
  switch (origin) {
    case 'string':
      return `be ${relation} ${String(limit)} characters`;
    case 'array':
    case 'set':
      return `have ${relation} ${String(limit)} items`;
    case 'date':
      return `be ${relation} ${new Date(Number(limit)).toISOString()}`;
    default:
      return `be ${relation} ${String(limit)}`;
  }
}

function gotSize(origin: string, input: unknown): string {
  if (origin === 'string' && typeof input === 'string') return ` (got ${input.length})`;
  if (origin === 'array' && Array.isArray(input)) return ` (got ${input.length})`;
  if (typeof input === 'number' || typeof input === 'bigint') return ` (got ${String(input)})`;
  return '';
}

const article = (noun: string): string => {
  const word =
    {
      int: 'integer',
      number: 'number',
      string: 'string',
      boolean: 'boolean (true or false)',
      object: 'JSON object',
      record: 'JSON object',
      array: 'JSON array',
    }[noun] ?? noun;
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
};

/** A short, safe rendering of what the client sent, for "(got ...)". */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length > 40 ? `a ${value.length}-character string` : JSON.stringify(value);
  return String(value);
}

/** The field path as `details.field` has always named it: `prompts.2`, `parameters.width`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** `width` + `must be at most 2048 (got 4096)`; a message that already names its field is kept as it is. */
export function describeIssue(field: string, message: string): string {
  if (field === '' || message.startsWith(field)) return message;
  return `${field} ${message}`;
}

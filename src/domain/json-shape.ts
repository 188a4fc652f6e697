import { invalidBody, invalidParameter } from './errors.js';

/** What is wrong with a parsed JSON value as a whole, found without recursion (a hostile body may nest 100,000 levels). */
export interface ShapeProblem {
  /** `metadata.a[0]`, or '' for the value itself. */
  path: string;
  message: string;
}

/** Any request body, and an MCP tool's arguments; `metadata` has its own, tighter limit. Deeper bodies are hostile, not data. */
export const MAX_BODY_DEPTH = 32;

export interface ShapeLimits {
  /** Containers (objects, arrays) inside one another; the value itself is level 1. */
  maxDepth: number;
}

/** Checks nesting depth, and that every string and key can be stored exactly as sent (see `textProblem`). */
export function findShapeProblem(value: unknown, limits: ShapeLimits, basePath = ''): ShapeProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: basePath, depth: 1 }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value: current, path, depth } = entry;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem !== undefined) return { path, message: problem };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limits.maxDepth) return { path, message: `is nested more than ${limits.maxDepth} levels deep` };
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: path === '' ? String(index) : `${path}.${index}`, depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path === '' ? key : `${path}.${key}`;
      const keyProblem = textProblem(key);
      if (keyProblem !== undefined) return { path: itemPath, message: `has a key that ${keyProblem}` };
      stack.push({ value: item, path: itemPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Why a string cannot be stored exactly as sent, or undefined: a lone surrogate has no UTF-8 form, and
 * PostgreSQL text cannot hold U+0000. Both are refused rather than silently altered.
 */
export function textProblem(text: string): string | undefined {
  if (!text.isWellFormed()) return 'contains a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); send valid Unicode text';
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000), which cannot be stored; remove it';
  return undefined;
}

/**
 * The text rule every entry shares (JSON bodies, MCP tool arguments, the generate verb): a value that `findShapeProblem`
 * faults is refused with a 400 naming its top-level field, before anything is looked up, paid for or stored.
 */
export function checkStorable(value: unknown, limits: ShapeLimits, what = 'the request body'): void {
  const problem = findShapeProblem(value, limits);
  if (problem === undefined) return;
  if (problem.path === '') throw invalidBody(`${what} ${problem.message}`);
  const field = problem.path.split(/[.[]/)[0] ?? problem.path;
  throw invalidParameter(field, `${problem.path} ${problem.message}`);
}

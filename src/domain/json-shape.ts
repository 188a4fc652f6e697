/** What is wrong with a parsed JSON value as a whole, found without recursion (a hostile body may nest 100,000 levels). */
export interface ShapeProblem {
  /** `metadata.a[0]`, or '' for the value itself. */
  path: string;
  message: string;
}

export interface ShapeLimits {
  /** Containers (objects, arrays) inside one another; the value itself is level 1. */
  maxDepth: number;
}

/**
 * Checks nesting depth, and that every string and key is well-formed UTF-16: a lone surrogate (`"\ud800"`)
 * cannot be stored as it was sent, so it is refused rather than silently replaced with U+FFFD.
 */
export function findShapeProblem(value: unknown, limits: ShapeLimits, basePath = ''): ShapeProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: basePath, depth: 1 }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value: current, path, depth } = entry;
    if (typeof current === 'string') {
      if (!current.isWellFormed()) return { path, message: 'contains a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); send valid Unicode text' };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limits.maxDepth) return { path, message: `is nested more than ${limits.maxDepth} levels deep` };
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: path === "" ? String(index) : `${path}.${index}`, depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path === '' ? key : `${path}.${key}`;
      if (!key.isWellFormed()) return { path: itemPath, message: 'has a key with a lone UTF-16 surrogate; send valid Unicode text' };
      stack.push({ value: item, path: itemPath, depth: depth + 1 });
    }
  }
  return undefined;
}

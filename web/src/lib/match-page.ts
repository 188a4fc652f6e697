/** The page a path shows, with its `:name` parameters; undefined when no page has that path. */
export function matchPage<P extends string>(pages: readonly P[], pathname: string): { page: P; params: Record<string, string> } | undefined {
  const parts = pathname.replace(/\/+$/, '').split('/').slice(1);
  for (const page of pages) {
    const pattern = page
      .split('/')
      .slice(1)
      .filter((part) => part !== '');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const actual = parts[i] ?? '';
      if (part.startsWith(':')) {
        if (actual === '') return false;
        params[part.slice(1)] = safeDecode(actual);
        return true;
      }
      return part === actual;
    });
    if (matches) return { page, params };
  }
  return undefined;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

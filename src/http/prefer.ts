/** The preferences of RFC 7240 this service honours on work that may take a while. */
export interface Preferences {
  /** `respond-async`: answer 202 at once (or after `wait`), with where to follow the work. */
  respondAsync: boolean;
  /** `wait=N`: seconds the caller is willing to wait, clamped to 1..MAX_WAIT_SECONDS. */
  waitSeconds?: number;
}

export const MAX_WAIT_SECONDS = 60;

/**
 * Reads `Prefer` (RFC 7240, any number of headers or comma-separated entries, any case). Preferences it does not know
 * are ignored, as the RFC asks; a `wait` out of range is clamped rather than refused, and the answer's
 * `Preference-Applied` says what was honoured.
 */
export function parsePrefer(header: string | undefined): Preferences {
  const preferences: Preferences = { respondAsync: false };
  if (header === undefined) return preferences;
  for (const entry of header.split(',')) {
    const [token = '', rawValue] = (entry.split(';')[0] ?? '').split('=', 2).map((part) => part.trim());
    const name = token.toLowerCase();
    if (name === 'respond-async') preferences.respondAsync = true;
    if (name === 'wait' && rawValue !== undefined) {
      const seconds = Number(rawValue.replace(/^"|"$/g, ''));
      if (Number.isFinite(seconds)) preferences.waitSeconds = Math.min(MAX_WAIT_SECONDS, Math.max(1, Math.ceil(seconds)));
    }
  }
  return preferences;
}

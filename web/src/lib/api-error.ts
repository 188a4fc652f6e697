/** An error answer of the API (`{ error, details, code }`), or a request that got no answer at all. */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';

  constructor(
    /** 0 when the server could not be reached. */
    readonly status: number,
    /** The API's own words: `error`. */
    readonly error: string,
    readonly details: Record<string, unknown> | string | undefined,
    readonly code: string | undefined,
  ) {
    super(error);
  }

  /** The field the API says is wrong: `details.field`, or `model` for an invalid model. */
  get field(): string | undefined {
    const details = typeof this.details === 'object' ? this.details : undefined;
    if (typeof details?.field === 'string') return details.field;
    if (this.code === 'INVALID_MODEL') return 'model';
    return undefined;
  }

  /**
   * What to show, worded as the API words it: `error`, then `details.message` (or a string `details`) when
   * that says more. In key mode a parameter error's `error` already is the message, so it is not repeated.
   */
  get text(): string {
    const more = typeof this.details === 'string' ? this.details : typeof this.details?.message === 'string' ? this.details.message : undefined;
    return more === undefined || more === this.error ? this.error : `${this.error}: ${more}`;
  }
}

/** Reads an error answer; the allow-list's plain-text `Forbidden` and non-JSON bodies keep their text. */
export async function failureFrom(response: Response): Promise<ApiFailure> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown; code?: unknown };
    if (typeof body.error === 'string') {
      const details =
        typeof body.details === 'string' || (typeof body.details === 'object' && body.details !== null)
          ? (body.details as Record<string, unknown> | string)
          : undefined;
      return new ApiFailure(response.status, body.error, details, typeof body.code === 'string' ? body.code : undefined);
    }
  } catch {
    // Not JSON: fall through to the text itself.
  }
  return new ApiFailure(response.status, text.trim() === '' ? `${response.status} ${response.statusText}` : text.trim().slice(0, 300), undefined, undefined);
}

/** Any thrown value as something to show; a failed fetch says the server could not be reached. */
export function asFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiFailure(0, 'Could not reach the server', message, undefined);
}

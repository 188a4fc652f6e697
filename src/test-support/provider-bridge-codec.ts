import {
  ProviderAccountProblem,
  ProviderCircuitOpen,
  ProviderJobAbandoned,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
} from '../ports/image-provider.js';

/**
 * The wire format between a test's provider, in the test process, and the service in wrangler dev's workerd that
 * calls it (test/runtimes/wrangler-dev/harness): JSON, with bytes as `{ "$bytes": <base64> }` and errors by class and fields.
 * Runtime-neutral: both sides use it.
 */
export function encodeBridge(value: unknown): string {
  // The holder's own field, not `field`: a Buffer's toJSON has already turned that into { type, data }.
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, field: unknown) {
    const original = this[key];
    return original instanceof Uint8Array ? { $bytes: base64Of(original) } : field;
  });
}

export function decodeBridge<T>(text: string): T {
  return JSON.parse(text, (_key, field: unknown) => (isBytes(field) ? bytesOf(field.$bytes) : field)) as T;
}

const isBytes = (field: unknown): field is { $bytes: string } =>
  typeof field === 'object' && field !== null && typeof (field as { $bytes?: unknown }).$bytes === 'string';

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A provider's error as it crosses: the port's classes keep their meaning (refusal, outage, unknown outcome...). */
export interface BridgedError {
  name: string;
  message: string;
  status?: number;
  retryAfterMs?: number;
  timedOut?: boolean;
}

export function errorToBridge(error: unknown): BridgedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { status, retryAfterMs, timedOut } = error as Partial<BridgedError>;
  return { name: error.name, message: error.message, status, retryAfterMs, timedOut };
}

export function errorFromBridge(error: BridgedError): Error {
  const { name, message, status = 503, retryAfterMs, timedOut = false } = error;
  if (name === 'ProviderRefusal') return new ProviderRefusal(message);
  if (name === 'ProviderCircuitOpen') return new ProviderCircuitOpen(message, status, retryAfterMs);
  if (name === 'ProviderJobAbandoned') return new ProviderJobAbandoned(message, status, retryAfterMs);
  if (name === 'ProviderUnavailable') return new ProviderUnavailable(message, status, retryAfterMs);
  if (name === 'ProviderOutcomeUnknown') return new ProviderOutcomeUnknown(message, timedOut);
  if (name === 'ProviderAccountProblem') return new ProviderAccountProblem(message, error.status);
  return Object.assign(new Error(message), { name });
}

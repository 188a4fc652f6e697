import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'igk_live_';
const DISPLAY_CHARS = 6;

/** 192 bits from the OS CSPRNG, base64url, behind a recognisable prefix (so secret scanners can spot leaks). */
export function generateSecret(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Enough of the key for a person to tell keys apart in a list, far too little to use it. */
export function displayPrefix(secret: string): string {
  const head = secret.startsWith(KEY_PREFIX) ? KEY_PREFIX.length : 0;
  return secret.slice(0, head + DISPLAY_CHARS);
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

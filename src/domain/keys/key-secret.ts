/*
 * WebCrypto only (no node:crypto): the domain runs unchanged on Node and on Cloudflare Workers.
 */
export const KEY_PREFIX = 'igk_live_';
const DISPLAY_CHARS = 6;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 192 bits from the platform's CSPRNG, base64url, behind a recognisable prefix (so secret scanners can spot leaks). */
export function generateSecret(): string {
  return `${KEY_PREFIX}${base64url(crypto.getRandomValues(new Uint8Array(24)))}`;
}

/** SHA-256 of the secret, hex: what is stored and looked up, never the secret itself. */
export async function hashSecret(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Enough of the key for a person to tell keys apart in a list, far too little to use it. */
export function displayPrefix(secret: string): string {
  const head = secret.startsWith(KEY_PREFIX) ? KEY_PREFIX.length : 0;
  return secret.slice(0, head + DISPLAY_CHARS);
}

/** Equal hex digests, compared in time that depends on their length only (no early exit at the first difference). */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

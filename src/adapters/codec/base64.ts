const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0));
const PAD = 0x3d; // '='

/**
 * Standard base64 with padding, written straight into ASCII bytes: no `Buffer` (Node only) and no `btoa`, which
 * needs the bytes as one large binary string first.
 */
export function base64Ascii(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out[o++] = CODES[n >> 18] ?? PAD;
    out[o++] = CODES[(n >> 12) & 63] ?? PAD;
    out[o++] = CODES[(n >> 6) & 63] ?? PAD;
    out[o++] = CODES[n & 63] ?? PAD;
  }
  const rest = bytes.length - whole;
  if (rest > 0) {
    const n = ((bytes[whole] ?? 0) << 16) | (rest === 2 ? (bytes[whole + 1] ?? 0) << 8 : 0);
    out[o++] = CODES[n >> 18] ?? PAD;
    out[o++] = CODES[(n >> 12) & 63] ?? PAD;
    out[o++] = rest === 2 ? (CODES[(n >> 6) & 63] ?? PAD) : PAD;
    out[o] = PAD;
  }
  return out;
}

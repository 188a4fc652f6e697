export interface IdGenerator {
  /** A new unique id `<prefix>_<suffix>`; suffixes sort by creation time. */
  newId(prefix: string): string;
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i += 1) {
    out = (ALPHABET[rest % 32] ?? '0') + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** ULID-style ids: 10 characters of millisecond time, then 16 of randomness (80 bits). */
export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  return {
    newId(prefix) {
      const random = crypto.getRandomValues(new Uint8Array(16));
      let suffix = encodeTime(now());
      for (const byte of random) suffix += ALPHABET[byte % 32] ?? '0';
      return `${prefix}_${suffix}`;
    },
  };
}

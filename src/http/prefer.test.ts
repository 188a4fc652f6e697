import { describe, expect, it } from 'vitest';
import { parsePrefer } from './prefer.js';

describe('Prefer (RFC 7240)', () => {
  it('reads respond-async and wait in any case and order, among preferences it ignores', () => {
    expect(parsePrefer(undefined)).toEqual({ respondAsync: false });
    expect(parsePrefer('respond-async')).toEqual({ respondAsync: true });
    expect(parsePrefer('Wait=10')).toEqual({ respondAsync: false, waitSeconds: 10 });
    expect(parsePrefer('return=minimal, RESPOND-ASYNC , wait=5')).toEqual({ respondAsync: true, waitSeconds: 5 });
    expect(parsePrefer('wait="7"; foo=bar')).toEqual({ respondAsync: false, waitSeconds: 7 });
  });

  it('clamps a wait out of range to 1..60 seconds and ignores one that is not a number', () => {
    expect(parsePrefer('wait=0').waitSeconds).toBe(1);
    expect(parsePrefer('wait=3600').waitSeconds).toBe(60);
    expect(parsePrefer('wait=2.2').waitSeconds).toBe(3);
    expect(parsePrefer('wait=soon').waitSeconds).toBeUndefined();
    expect(parsePrefer('wait').waitSeconds).toBeUndefined();
  });
});

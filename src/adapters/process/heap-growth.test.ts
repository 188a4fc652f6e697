import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth.js';

describe('heap growth bound', () => {
  it('asks V8 to grow the old generation by half of what survived', () => {
    expect(heapGrowthFlag([], undefined)).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe('--heap-growing-percent=50');
  });

  it("leaves an operator's own setting alone, in node's arguments or in NODE_OPTIONS, with dashes or underscores", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=100'], undefined)).toBeUndefined();
    expect(heapGrowthFlag([], '--max-old-space-size=512 --heap_growing_percent=20')).toBeUndefined();
  });
});

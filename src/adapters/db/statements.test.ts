import { describe, expect, it } from 'vitest';
import { perStatement } from './statements.js';

describe('perStatement', () => {
  it('keeps the preferred batch where the database allows it (SQLite, PostgreSQL)', () => {
    expect(perStatement(500, 32_766, 8)).toBe(500);
  });

  it('fits D1’s 100 bound values: 12 rows of 8 values, 99 keys beside one more value', () => {
    expect(perStatement(500, 100, 8)).toBe(12);
    expect(perStatement(500, 100, 1, 1)).toBe(99);
  });

  it('never answers less than one, so a loop over the rows always moves on', () => {
    expect(perStatement(500, 5, 8)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { levelSizes } from './demo-data.ts';

describe('levelSizes', () => {
  it('places every member on at most 10 levels, with roots of 100,000 at a million', () => {
    for (const n of [1, 2, 5, 13, 60, 300, 10_000, 1_000_000]) {
      const sizes = levelSizes(n);
      expect(sizes.reduce((a, b) => a + b, 0), String(n)).toBe(n);
      expect(sizes.length).toBeLessThanOrEqual(10);
      expect(Math.min(...sizes)).toBeGreaterThan(0);
    }
    expect(levelSizes(1_000_000)[0]).toBe(10);
    expect(levelSizes(300)).toHaveLength(10);
  });
});

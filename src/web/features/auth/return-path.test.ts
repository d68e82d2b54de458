import { describe, expect, it } from 'vitest';
import { returnPathOf, safeReturnPath } from './return-path';

describe('safeReturnPath (issue 24): only this panel\u2019s own paths', () => {
  it('keeps a path of the panel with its query', () => {
    expect(safeReturnPath('/users?status=inactive&page=2')).toBe('/users?status=inactive&page=2');
    expect(safeReturnPath('/approvals')).toBe('/approvals');
    expect(returnPathOf({ from: '/wallet?kind=reward' })).toBe('/wallet?kind=reward');
  });

  it('refuses other sites and anything that is not a plain path', () => {
    for (const bad of [
      '//evil.com', '//evil.com/users', 'https://evil.com', 'http://evil.com/x', '/\\evil.com', '\\\\evil.com', '/\\/evil.com',
      'javascript:alert(1)', 'evil.com', '', ' /users', '/\t/evil.com', '/signin', '/two-factor-setup?x=1',
    ]) {
      expect(safeReturnPath(bad), bad).toBeNull();
    }
    expect(safeReturnPath(42)).toBeNull();
    expect(returnPathOf(null)).toBeNull();
    expect(returnPathOf({ from: '//evil.com' })).toBeNull();
  });
});

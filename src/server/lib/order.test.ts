import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sortParam } from '../../contract/common.ts';
import { orderSql } from './order.ts';

const COLUMNS = { userId: 'u.user_id', fullName: 'lower(u.full_name)' };

describe('list order', () => {
  it('orders by the chosen column with the tie-break in the same direction', () => {
    expect(orderSql('fullName', COLUMNS, 'u.user_id')).toBe('lower(u.full_name) asc, u.user_id asc');
    expect(orderSql('-fullName', COLUMNS, 'u.user_id')).toBe('lower(u.full_name) desc, u.user_id desc');
    expect(orderSql('-userId', COLUMNS, 'u.user_id')).toBe('u.user_id desc');
  });

  it('accepts only the keys a list declares, in either direction, and defaults when absent', () => {
    const query = z.object({ sort: sortParam(['userId', 'fullName'], '-userId') });
    expect(query.parse({}).sort).toBe('-userId');
    expect(query.parse({ sort: 'fullName' }).sort).toBe('fullName');
    expect(query.parse({ sort: '-fullName' }).sort).toBe('-fullName');
    const bad = query.safeParse({ sort: 'password_hash' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('Sort must be one of: userId, -userId, fullName, -fullName');
  });
});

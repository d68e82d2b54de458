import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInApp, type TestContext } from '../../test/harness.ts';
import { newMember } from '../wallet/money-test-kit.ts';

let t: TestContext;
let token: string;
beforeAll(async () => {
  ({ t, token } = await signedInApp());
});
afterAll(() => t.close());

describe('finding 8: the daily payouts CSV export pages by key', () => {
  it('returns every payout exactly once, newest day first, across batch boundaries inside one day, filtered or not', async () => {
    // 30 members × 90 days: a batch of 1,000 ends in the middle of a day's 30 payouts.
    const members: number[] = [];
    for (let i = 0; i < 30; i++) members.push(await newMember(t.database, `Payout Export ${i}`));
    await t.database.query(
      `insert into daily_payouts (user_id, payout_date, amount_paise, status)
       select m, date '2023-01-01' + d, 100 + d, case when (m + d) % 4 = 0 then 'Success' else 'Failure' end
         from unnest($1::int8[]) as m cross join generate_series(0, 89) as d`,
      [members]);
    const ids = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      return res.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => Number(l.split(',')[0]));
    };
    const expected = async (where: string) =>
      (await t.database.query<{ id: number }>(`select p.id from daily_payouts p ${where} order by p.payout_date desc, p.id desc`))
        .map((r) => Number(r.id));

    const all = await ids('/api/wallets/dailyPayout.csv');
    expect(all.length).toBeGreaterThanOrEqual(2700);
    expect(all).toEqual(await expected(''));
    expect(await ids('/api/wallets/dailyPayout.csv?status=Failure&fromDate=15-01-2023&toDate=20-03-2023'))
      .toEqual(await expected(`where p.status = 'Failure' and p.payout_date between '2023-01-15' and '2023-03-20'`));
  });
});

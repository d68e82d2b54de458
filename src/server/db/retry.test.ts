import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/harness.ts';
import { rowsOf, type Database } from './client.ts';
import { isRetryable, sqlStateOf, TRANSACTION_TRIES, withRetries } from './retry.ts';
import { emptyTestDatabase } from './test-database.ts';

/**
 * Issue 22, finding 8: a real deadlock between two transactions of the pool (PostgreSQL). PGlite
 * is one connection that runs one transaction at a time, so it cannot deadlock: the deadlock test
 * is PostgreSQL's only; retry-requests.test.ts forces the same SQLSTATE through the request path
 * on both databases.
 */
let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await emptyTestDatabase(4));
  await database.exec('create table deadlock_probe (id int primary key, n int not null); insert into deadlock_probe values (1, 0), (2, 0);');
});
afterAll(() => drop());

/** A promise and its resolve. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('deadlocks are tried again inside db.transaction', () => {
  it.skipIf(testDbKind === 'pglite')('two transactions locking two rows in opposite order: both commit, the one PostgreSQL rolled back is done again', async () => {
    const locked = [signal(), signal()];
    const attempts = [0, 0];
    const transfer = (me: 0 | 1) => database.db.transaction(async (tx) => {
      attempts[me] += 1;
      const [first, second] = me === 0 ? [1, 2] : [2, 1];
      await tx.execute(sql`update deadlock_probe set n = n + 1 where id = ${first}`);
      if (attempts[me] === 1) {
        locked[me].resolve();
        await locked[1 - me].promise; // each holds its first row when it reaches for the other's
      }
      await tx.execute(sql`update deadlock_probe set n = n + 1 where id = ${second}`);
      return me;
    });
    expect(await Promise.all([transfer(0), transfer(1)])).toEqual([0, 1]);
    expect(attempts.sort()).toEqual([1, 2]);
    const rows = rowsOf<{ id: number; n: number }>(await database.db.execute(sql`select id, n from deadlock_probe order by id`));
    expect(rows).toEqual([{ id: 1, n: 2 }, { id: 2, n: 2 }]);
  });

  it.skipIf(testDbKind === 'pglite')('the error PostgreSQL raises is 40P01, and after TRANSACTION_TRIES it is thrown marked as used up', async () => {
    const errors: unknown[] = [];
    let tries = 0;
    const always = withRetries(async () => {
      tries += 1;
      await database.exec(`do $$ begin raise exception 'deadlock detected' using errcode = '40P01'; end $$`);
    }, TRANSACTION_TRIES, (e) => errors.push(e));
    const thrown = await always.then(() => null, (e: unknown) => e);
    expect(tries).toBe(TRANSACTION_TRIES);
    expect(errors.map(sqlStateOf)).toEqual(Array(TRANSACTION_TRIES - 1).fill('40P01'));
    expect(sqlStateOf(thrown)).toBe('40P01');
    expect(isRetryable(thrown)).toBe(false); // an outer loop (the engine's) does not multiply the tries
  });

  it('anything else is not tried again', async () => {
    let tries = 0;
    const thrown = await database.db.transaction(async (tx) => {
      tries += 1;
      await tx.execute(sql`insert into deadlock_probe values (1, 0)`);
    }).then(() => null, (e: unknown) => e);
    expect(sqlStateOf(thrown)).toBe('23505');
    expect(tries).toBe(1);
  });
});

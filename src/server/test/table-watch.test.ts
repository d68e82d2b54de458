import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, tableChecksums, watchTables, type TableWatch } from './fuzz/checksum.ts';
import { createTestApp, type TestContext } from './harness.ts';

/**
 * The fuzz test recomputes only the tables a committed statement wrote to (fuzz/checksum.ts):
 * these cases show that this sees every kind of change a full checksum of every table sees, and
 * nothing that a full checksum would not.
 */
describe('the fuzz test\'s table watch', () => {
  let t: TestContext;
  let watch: TableWatch;
  beforeAll(async () => {
    t = await createTestApp();
    watch = await watchTables(t.database);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function changesOf(work: () => Promise<unknown>): Promise<string[]> {
    const before = await watch.checksums();
    await work();
    return changedTables(before, await watch.checksums());
  }

  it('sees an insert, an update and a delete, each in the table written', async () => {
    expect(await changesOf(() => t.database.query(`insert into ranks (name) values ('Watched')`))).toEqual(['ranks']);
    expect(await changesOf(() => t.database.query(`update ranks set status = false where name = 'Watched'`))).toEqual(['ranks']);
    expect(await changesOf(() => t.database.query(`delete from ranks where name = 'Watched'`))).toEqual(['ranks']);
  });

  it('sees no change for an update that writes the same values or a write that is rolled back', async () => {
    expect(await changesOf(() => t.database.query('update ranks set name = name'))).toEqual([]);
    const rolledBack = () =>
      t.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into ranks (name) values ('Never')`);
          throw new Error('roll back');
        })
        .catch(() => undefined);
    expect(await changesOf(rolledBack)).toEqual([]);
  });

  it('gives the same snapshot as checksumming every table afresh', async () => {
    await t.database.query(`insert into ranks (name) values ('Kept')`);
    expect(await watch.checksums()).toEqual(await tableChecksums(t.database));
  });
});

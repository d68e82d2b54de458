import { testDbKind } from '../test/harness.ts';
import { throwawayPostgres } from '../test/throwaway-postgres.ts';
import { openPglite, openPostgres, type Database } from './client.ts';

/**
 * An empty database of the kind the suite runs on (not migrated): a new in-memory PGlite, or a
 * throw-away database on the TEST_DATABASE_URL server with a pool of `poolSize` connections.
 */
export async function emptyTestDatabase(poolSize = 2): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (testDbKind === 'pglite') {
    const database = await openPglite(undefined);
    return { database, drop: () => database.close() };
  }
  const { url, drop } = await throwawayPostgres();
  const database = await openPostgres(url, poolSize);
  return {
    database,
    drop: async () => {
      await database.close();
      await drop();
    },
  };
}

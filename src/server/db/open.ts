import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './client.ts';

/** The database the configuration asks for: a PostgreSQL server, or the embedded PGlite. */
export async function openDatabase(config: Config, warn: (message: string) => void): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  if (config.production) {
    if (!config.allowEmbeddedDb) {
      throw new Error(
        'NODE_ENV=production needs DATABASE_URL (a PostgreSQL server). The embedded database does not fsync ' +
          'and serves one process only; set ALLOW_EMBEDDED_DB=true to use it anyway.',
      );
    }
    warn('Running production on the embedded PGlite database (ALLOW_EMBEDDED_DB=true): not for real money.');
  }
  return openPglite(config.dataDir);
}

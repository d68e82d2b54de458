import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER, statementName, type Db, type Driver } from './driver.ts';
import { applyFunctions } from './functions.ts';
import { retryingTransactions } from './retry.ts';

// node-postgres returns bigint (int8) as string: our ids and paise fit in a JS number, in arrays too
// (as PGlite reads them).
pg.types.setTypeParser(20, (v) => Number(v));
const INT8_ARRAY = 1016 as Parameters<typeof pg.types.getTypeParser>[0]; // not among pg's named builtins
const int8ArrayAsText = pg.types.getTypeParser(INT8_ARRAY) as (v: string) => (string | null)[];
pg.types.setTypeParser(INT8_ARRAY, (v: string) => int8ArrayAsText(v).map((x) => (x === null ? null : Number(x))));
// `date` columns stay 'yyyy-mm-dd' strings, never shifted by the process time zone.
pg.types.setTypeParser(1082, (v) => v);

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/** Names a parameterised query (text + values, or a config object without a name). */
function prepared([config, values, callback]: QueryArgs): QueryArgs {
  if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
    const name = statementName(config);
    return name ? [{ name, text: config, values }, undefined, callback] : [config, values, callback];
  }
  if (config && typeof config === 'object') {
    // Drizzle passes its values as the second argument, next to a config object without them.
    const c = config as { name?: string; text?: string; values?: unknown[] };
    const given = c.values ?? (Array.isArray(values) ? values : undefined);
    if (!c.name && typeof c.text === 'string' && (given?.length ?? 0) > 0) {
      const name = statementName(c.text);
      if (name) return [{ ...c, name }, values, callback];
    }
  }
  return [config, values, callback];
}

/**
 * A PostgreSQL server as a Driver, on `pool`: every parameterised statement of every pooled
 * connection (Drizzle's too) runs prepared under its name. Migrations run on a connection of
 * their own to `url`, without the pool's statement timeout: a migration may build an index over
 * millions of rows.
 */
export function postgresDriver(pool: pg.Pool, url: string): Driver {
  pool.on('connect', (client) => {
    const own = client as unknown as { query: (...args: unknown[]) => unknown };
    // The prototype's query is looked up per call: the timing plugin may wrap it later.
    own.query = (...args: unknown[]) => (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(client, prepared(args as QueryArgs));
  });
  return {
    db: retryingTransactions(drizzle(pool) as unknown as Db),
    async query(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    async exec(text) {
      await pool.query(text);
    },
    async migrate(options) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await migrate(drizzle(client) as never, { migrationsFolder: MIGRATIONS_FOLDER });
        const session = {
          async run(text: string) {
            const results = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
            return (Array.isArray(results) ? results.at(-1)?.rows : results.rows) ?? [];
          },
        };
        await applyFunctions(session, options?.functionsFolder);
      } finally {
        await client.end();
      }
    },
  };
}

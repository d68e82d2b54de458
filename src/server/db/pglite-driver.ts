import { PGlite, parse as pgliteResults, protocol, types, type Results } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, statementName, type Db, type Driver } from './driver.ts';
import { applyFunctions } from './functions.ts';
import { retryingTransactions } from './retry.ts';
import { queryTiming } from './query-timing.ts';

/**
 * How PGlite reads `date` (else a Date at UTC midnight): 'yyyy-mm-dd' text, as on a server
 * (postgres-driver.ts), never shifted by the process time zone. Pass to PGlite.create.
 */
export const PGLITE_PARSERS = { [types.DATE]: (value: string) => value };

/**
 * The embedded PGlite as a Driver. Drizzle and transactions go through PGlite's own query(); a
 * plain parameterised query is prepared once and then only bound and executed (below), except
 * under SERVER_TIMING, which measures (and explains) through PGlite's query(), which it wraps.
 */
export function pgliteDriver(client: PGlite): Driver {
  const preparedQuery = pglitePreparedQueries(client);
  return {
    db: retryingTransactions(drizzle(client) as unknown as Db),
    async query(text, params) {
      if (queryTiming.getStore() || !params?.length) return (await client.query(text, params as unknown[])).rows as never[];
      return preparedQuery(text, params) as Promise<never[]>;
    },
    async exec(text) {
      await client.exec(text);
    },
    async migrate(options) {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      const session = { run: async (text: string) => ((await client.exec(text)).at(-1)?.rows ?? []) as Record<string, unknown>[] };
      await applyFunctions(session, options?.functionsFolder);
    },
  };
}

/**
 * PGlite's query() parses and plans its statement every time (an unnamed statement, four protocol
 * round trips into the WebAssembly). Like the named statements on a server, this prepares each
 * parameterised text once per database (Parse + Describe) and then only binds and executes it,
 * in one protocol message, under PGlite's own locks (so never inside another caller's transaction).
 */
function pglitePreparedQueries(client: PGlite) {
  interface Statement {
    name: string;
    paramTypes: number[];
    /** The columns, put in front of each execution's rows (an execution sends no RowDescription). */
    rowDescription: unknown;
  }
  const statements = new Map<string, Statement>();
  const { serialize } = protocol;
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const run = async (message: Uint8Array) => (await client.execProtocol(message, { syncToFs: false })).messages;

  return (text: string, params: unknown[]) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        let statement = statements.get(text);
        if (!statement) {
          const name = statementName(text);
          if (!name) return (await client.query(text, params)).rows;
          const described = await run(concat(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()));
          const parameters = described.find((m) => m.name === 'parameterDescription') as unknown as { dataTypeIDs: number[] } | undefined;
          statement = {
            name,
            paramTypes: parameters?.dataTypeIDs ?? [],
            rowDescription: described.find((m) => m.name === 'rowDescription') ?? null,
          };
          statements.set(text, statement);
        }
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const serializer = client.serializers[statement.paramTypes[i]];
          return serializer ? serializer(v) : String(v);
        });
        const messages = await run(concat(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()));
        await client.syncToFs();
        const [result] = pgliteResults.parseResults(
          (statement.rowDescription ? [statement.rowDescription, ...messages] : messages) as never,
          client.parsers,
        ) as Results[];
        return result?.rows ?? [];
      }),
    );
}

import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import type { CapturedQuery } from '../src/server/db/query-timing.ts';
import { isRead } from './pgbench.ts';

/**
 * The floor of the reads (issue 23), as a process of its own (bench/floor.ts starts it): `GET /n`
 * runs read n's captured statements in order, each prepared under a name with its captured
 * parameters, and answers their rows with JSON.stringify. node:http and node-postgres with the
 * app's pool size, and nothing else: no framework, no session check, no input schema, no row
 * mapping, no serializer. What it serves under the bench's load is what a Node server reading
 * those statements through node-postgres gets on this machine at the least cost; the app's own
 * figure is read against it.
 *
 * FLOOR_READS names a JSON file of CapturedQuery[][] (one list per read), DATABASE_URL the
 * database, PORT the port (127.0.0.1). It prints "listening" once it listens.
 */
const reads = JSON.parse(fs.readFileSync(process.env.FLOOR_READS!, 'utf8')) as CapturedQuery[][];
/** The app's own pool size (src/server/db/open.ts). */
const POOL_SIZE = 10;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
pool.on('error', () => {
  /* an idle connection dropped; the pool opens another */
});

/** Reads are prepared under a name, as the app's driver prepares them; begin and commit go as they are. */
const queryOf = (n: number, i: number, q: CapturedQuery): pg.QueryConfig =>
  isRead(q.text) ? { name: `floor_${n}_${i}`, text: q.text, values: q.params } : { text: q.text, values: q.params };

async function rowsOf(n: number): Promise<unknown[][]> {
  const statements = reads[n];
  if (statements.length === 1) return [(await pool.query(queryOf(n, 0, statements[0]))).rows];
  const client = await pool.connect();
  try {
    const out: unknown[][] = [];
    for (const [i, q] of statements.entries()) out.push((await client.query(queryOf(n, i, q))).rows);
    client.release();
    return out;
  } catch (err) {
    client.release(err as Error); // a connection left inside a failed transaction is not reused
    throw err;
  }
}

http
  .createServer((req, res) => {
    const n = Number((req.url ?? '').slice(1));
    if (!Number.isInteger(n) || !reads[n]) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"message":"No such read"}');
      return;
    }
    rowsOf(n).then(
      (rows) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: rows })),
      (err: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, message: err.message })),
    );
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));

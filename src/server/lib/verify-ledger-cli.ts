import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { verifyLedger } from './money-invariants.ts';

// npm run verify-ledger: the money invariants on the database the configuration names
// (DATABASE_URL, else the PGlite in DATA_DIR); exit code 1 when one is broken, 2 when it cannot check.
const config = loadConfig();
let code = 2;
try {
  // A full check sums the whole ledger: minutes on a large one, not a request's few seconds.
  const database = await openDatabase({ ...config, statementTimeoutMs: 0 }, console.warn);
  try {
    code = await verifyLedger(database, (line) => console.log(line));
  } finally {
    await database.close();
  }
} catch (err) {
  console.error(`verify-ledger could not check the database: ${(err as Error).message}`);
}
process.exit(code);

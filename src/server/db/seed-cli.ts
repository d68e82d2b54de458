import { loadConfig } from '../config.ts';
import { ensureReferenceData } from './bootstrap.ts';
import { seedDemoData } from './demo-data.ts';
import { openDatabase } from './open.ts';

// npm run seed -- --members N [--days D]: adds N demo members (and their money) to the database
// the configuration names (DATABASE_URL, else ./data).
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} needs a whole number`);
    process.exit(2);
  }
  return value;
}

const config = loadConfig();
// A seed is not a request: the income runs it makes at 1,000,000 members take longer than the
// requests' statement timeout (STATEMENT_TIMEOUT_MS), as verify-ledger's checks do.
const database = await openDatabase({ ...config, statementTimeoutMs: 0 }, console.warn);
try {
  await database.exclusive(async () => {
    await database.migrate();
    await ensureReferenceData(database);
    await seedDemoData(database, {
      members: arg('members', 1000),
      days: arg('days', 90),
      onProgress: (m) => console.log(`[seed] ${m}`),
    });
  });
} finally {
  await database.close();
}

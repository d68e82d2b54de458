import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { FUNCTIONS_FOLDER } from '../src/server/db/functions.ts';
import { memberSearchFunctionSql } from '../src/server/db/member-search.ts';
import { openDatabase } from '../src/server/db/open.ts';

// npm run db:functions [-- --check]: writes drizzle/functions/member_search_match.sql from the
// member-search rule (src/server/db/member-search.ts), then applies every changed function file to
// the database the configuration names (DATABASE_URL, else ./data) as a start would. With --check
// it only reports whether the generated file is current (exit 1 when not), touching no database.
const generated = path.join(FUNCTIONS_FOLDER, 'member_search_match.sql');
const current = fs.existsSync(generated) ? fs.readFileSync(generated, 'utf8') : '';
const wanted = memberSearchFunctionSql();
if (process.argv.includes('--check')) {
  if (current !== wanted) {
    console.error(`${path.relative(process.cwd(), generated)} is out of date: run npm run db:functions`);
    process.exit(1);
  }
  process.exit(0);
}
if (current !== wanted) {
  fs.writeFileSync(generated, wanted);
  console.log(`Wrote ${path.relative(process.cwd(), generated)}`);
}
const database = await openDatabase(loadConfig(), console.warn);
try {
  await database.exclusive(() => database.migrate());
  console.log('Migrations and trigger functions are current.');
} finally {
  await database.close();
}

import { buildApp } from './app.ts';
import { loadConfig, randomPassword } from './config.ts';
import { ensureAdmin, ensureReferenceData } from './db/bootstrap.ts';
import { seedDemoData } from './db/demo-data.ts';
import { openDatabase, productionSettingsProblems } from './db/open.ts';
import { startHousekeeping } from './housekeeping.ts';
import { startEngine } from './modules/income/runs/scheduler.ts';
import { logMailer, type Mailer } from './mailer.ts';
import { smtpMailer } from './smtp-mailer.ts';

const config = loadConfig();
const log = (message: string) => console.log(`[backoffice] ${message}`);

const problems = productionSettingsProblems(config);
if (problems.length > 0) {
  for (const problem of problems) console.error(`[backoffice] ${problem}`);
  console.error('[backoffice] Not started.');
  process.exit(1);
}

const smtp = config.smtpUrl ? smtpMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom }) : null;
// Without SMTP_URL (development only, checked above) mail goes to the console, links included.
const mailer: Mailer = smtp ?? logMailer({ info: (fields, message) => log(`${message} ${JSON.stringify(fields)}`) }, { showLinks: !config.production });

const database = await openDatabase(config, log);
// Of several copies starting at once on one PostgreSQL, one migrates and bootstraps; the rest wait.
const admin = await database.exclusive(async () => {
  await database.migrate();
  await ensureReferenceData(database);
  const created = await ensureAdmin(database, config.adminEmail, config.adminPassword, randomPassword);
  if (created.created && config.seedMembers > 0) {
    log(`First start: filling the database with ${config.seedMembers} demo members…`);
    await seedDemoData(database, { members: config.seedMembers, onProgress: (m) => log(`  ${m}`) });
  }
  return created;
});

const app = await buildApp({ config, database, mailer, logger: { level: config.logLevel } });

let stopHousekeeping = async () => {};
let stopEngine = async () => {};
let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log(`${signal}: finishing requests in flight, then closing the database`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await app.close();
  await stopHousekeeping();
  await stopEngine();
  smtp?.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
stopHousekeeping = startHousekeeping(database, config.loginWindowMinutes, log);
// Runs a crash left half-done go on; the schedule (ENGINE_SCHEDULE) runs due periods every minute.
stopEngine = startEngine(database, log, { schedule: config.engineSchedule });
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
log(`Ready on http://localhost:${config.port} (API under /api, docs at /api/docs) on ${where}`);
log(smtp ? `Mail goes through SMTP_URL; links in it start with ${config.publicUrl}` : `No SMTP_URL: mail is printed here (development); links in it start with ${config.publicUrl}`);
if (admin.created && admin.generatedPassword) {
  log(`Sign in as ${config.adminEmail} with password ${admin.generatedPassword} (shown once; set ADMIN_PASSWORD to choose it)`);
} else if (admin.created) {
  log(`Sign in as ${config.adminEmail} with the password from ADMIN_PASSWORD`);
} else if (admin.existing === 'this') {
  log(`Sign in as ${config.adminEmail}`);
} else {
  log(
    `No account has ADMIN_EMAIL ${config.adminEmail}; this database has ${admin.administrators} administrator(s) already, ` +
      'so none was created: sign in with one of theirs (the bootstrap administrator is made on first start only)',
  );
}

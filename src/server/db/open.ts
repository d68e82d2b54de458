import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './client.ts';

/** The database the configuration asks for: a PostgreSQL server, or the embedded PGlite. */
export async function openDatabase(config: Config, warn: (message: string) => void): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, 10, config.statementTimeoutMs);
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

/**
 * What a production start lacks, as sentences for the operator (empty when nothing): links in mail
 * need the panel's public address, and mail needs a real server, since the log mailer's links would
 * land in the log (issue 13, findings 3 and 4).
 */
export function productionSettingsProblems(config: Config): string[] {
  if (!config.production) return [];
  const problems: string[] = [];
  if (!config.publicUrlSet) {
    problems.push('NODE_ENV=production needs PUBLIC_URL, the address the panel is reached at (e.g. https://backoffice.example.com): reset and invite links are built from it.');
  }
  if (!config.smtpUrl) {
    problems.push('NODE_ENV=production needs SMTP_URL (e.g. smtp://user:password@mail.example.com:587): reset and invite mail must go to a real mail server; the log mailer is for development only.');
  }
  if (config.captureQueries) {
    problems.push('CAPTURE_QUERIES is for the benchmark only: in production it would hand every statement and its parameter values to whoever asks; remove it.');
  }
  return problems;
}

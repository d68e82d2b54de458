import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect, inject } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { ensureAdmin, ensureReferenceData } from '../db/bootstrap.ts';
import { seedDemoData } from '../db/demo-data.ts';
import type { Mailer } from '../mailer.ts';
import { scanResponses, secretWatch, type SecretWatch } from './secrets.ts';
import { throwawayPostgres } from './throwaway-postgres.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, buildPgliteTemplate } from './pglite-template.ts';
import { cloneDatabase, seededPglite, seededPostgres } from './seeded-templates.ts';

/**
 * A fresh, migrated database per call: PGlite by default, a throw-away database on the
 * PostgreSQL server when the suite runs with TEST_DB=postgres (TEST_DATABASE_URL names the server).
 */
export const testDbKind: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export { ADMIN_EMAIL, ADMIN_PASSWORD } from './pglite-template.ts';

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A database of its own, loaded from the run's template (global-setup.ts), else from one built
 * here; with `members`, from the run's seeded template of that size (seeded-templates.ts).
 */
async function freshPglite(members: number): Promise<Database> {
  const file = inject('pgliteTemplate');
  pgliteTemplate ??= (async () => (file ? new Blob([fs.readFileSync(file)]) : buildPgliteTemplate()))();
  if (members > 0 && file) return seededPglite(path.dirname(file), await pgliteTemplate, members);
  const database = await openPglite(undefined, await pgliteTemplate);
  if (members > 0) await seedDemoData(database, { members });
  return database;
}

/** A throw-away database cloned from the run's template (global-setup.ts), else migrated here. */
async function freshPostgres(members: number): Promise<{ database: Database; drop: () => Promise<void> }> {
  const base = inject('postgresTemplate');
  const server = process.env.TEST_DATABASE_URL;
  if (base && server) {
    const template = members > 0 ? await seededPostgres(server, base, members) : base;
    const { url, drop } = await cloneDatabase(server, template);
    return { database: await openPostgres(url, 5), drop };
  }
  const { url, drop } = await throwawayPostgres();
  const database = await openPostgres(url, 5);
  await database.migrate();
  await ensureReferenceData(database);
  await ensureAdmin(database, ADMIN_EMAIL, ADMIN_PASSWORD, () => ADMIN_PASSWORD);
  if (members > 0) await seedDemoData(database, { members });
  return { database, drop };
}

export interface SentMail {
  to: string;
  link: string;
  kind: 'reset' | 'invite' | 'confirm' | 'email';
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  mail: SentMail[];
  /** Every response body is scanned for password hashes and issued tokens; close() fails on a leak. */
  secrets: SecretWatch;
  /** Signs in through the API and returns the bearer token. */
  login(email?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    members?: number; config?: Partial<Config>; logStream?: { write(line: string): void };
    /** A real mailer (the SMTP mailer's test) instead of the one that captures into `mail`. */
    mailer?: Mailer;
  } = {},
): Promise<TestContext> {
  let database: Database;
  let drop = async () => {};
  const members = Math.max(0, Math.floor(options.members ?? 0));
  if (testDbKind === 'postgres') {
    ({ database, drop } = await freshPostgres(members));
  } else {
    database = await freshPglite(members);
  }
  const mail: SentMail[] = [];
  const secrets = secretWatch();
  const capture = (kind: SentMail['kind'], to: string, link: string) => {
    mail.push({ to, link, kind });
    const token = new URL(link).searchParams.get('token');
    if (token) secrets.tokens.add(token);
  };
  const mailer: Mailer = {
    async sendPasswordReset(to, link) {
      capture('reset', to, link);
    },
    async sendInvite(to, _name, link) {
      capture('invite', to, link);
    },
    async sendEmailConfirmation(to, _name, link) {
      capture('confirm', to, link);
    },
    async sendEmailChange(to, _name, link) {
      capture('email', to, link);
    },
  };
  const config: Config = { ...loadConfig({}), webDir: '/nonexistent', ...options.config };
  const logger = options.logStream ? { level: 'trace', stream: options.logStream } : undefined;
  const app = await buildApp({ config, database, mailer: options.mailer ?? mailer, logger });
  scanResponses(app, secrets);
  await app.ready();
  return {
    app,
    database,
    mail,
    secrets,
    async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return res.json().data.token as string;
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
      if (secrets.leaks.length) throw new Error(`Responses leaked secrets:\n${secrets.leaks.join('\n')}`);
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A self-registered account whose email link was followed: signed in, but it has no role, so it
 * holds no permission — the caller every permission test uses. Phone and email are derived from
 * `n` so a file can make several (each from its own address: registrations are limited per address).
 */
export async function plainAccount(t: TestContext, n = 1): Promise<Record<string, string>> {
  const email = n === 1 ? 'plain@test.local' : `plain${n}@test.local`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: `10.250.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`,
    payload: {
      name: `plainuser${n === 1 ? '' : n}`, fullName: 'Plain User', email,
      phone: `91111111${String(10 + n).slice(-2)}`.slice(0, 10), address: 'Pune', password: 'plain-password',
    },
  });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  await confirmRegistration(t, email);
  return bearer(res.json().token);
}

/** Follows the confirmation link mailed to `email` by its registration (the last one mailed there). */
export async function confirmRegistration(t: TestContext, email: string): Promise<void> {
  const mail = t.mail.findLast((m) => m.kind === 'confirm' && m.to === email);
  if (!mail) throw new Error(`no confirmation mail to ${email}`);
  const token = new URL(mail.link).searchParams.get('token');
  const res = await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`confirmation failed: ${res.statusCode} ${res.body}`);
}

/** An inject call with the given headers (default: none): `call('GET', '/api/…', undefined, admin)`. */
export function caller(t: TestContext, defaults: Record<string, string> = {}) {
  return (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = defaults) =>
    t.app.inject({ method, url, headers, payload });
}

/** A test app signed in as the admin: the token, its headers, and a caller that sends them. */
export async function signedInApp(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  const token = await t.login();
  const headers = bearer(token);
  return { t, token, headers, call: caller(t, headers) };
}

/** A CSV export asked through `call`: answered 200 as text/csv; its lines without the BOM. */
export async function csvExport(call: ReturnType<typeof caller>, url: string, headers?: Record<string, string>) {
  const res = await call('GET', url, undefined, headers);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  return { header: lines[0], rows: lines.slice(1), res };
}

import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** Every setting the server reads, parsed once from the environment (README lists them). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  allowEmbeddedDb: boolean;
  production: boolean;
  adminEmail: string;
  adminPassword: string | undefined;
  allowRegistration: boolean;
  seedMembers: number;
  webDir: string;
  logLevel: string;
  corsOrigins: string[];
  /** Send each request's database time as a Server-Timing header (bench, operations). */
  serverTiming: boolean;
  /** With serverTiming: run each read under EXPLAIN ANALYZE too, for the database's own time. */
  explainQueries: boolean;
  /**
   * Behind a load balancer: how far to trust X-Forwarded-For for the client address (login rate
   * limit, audit): a number of proxy hops (1 = the balancer's own entry), or addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  loginMaxFailuresPerEmail: number;
  loginMaxFailuresPerIp: number;
  loginWindowMinutes: number;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

function trustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value === 'true' ? true : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int('PORT', env.PORT, 8009),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    allowEmbeddedDb: bool(env.ALLOW_EMBEDDED_DB, false),
    production: env.NODE_ENV === 'production',
    adminEmail: (env.ADMIN_EMAIL || 'admin@backoffice.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    allowRegistration: bool(env.ALLOW_REGISTRATION, true),
    seedMembers: int('SEED_MEMBERS', env.SEED_MEMBERS, 300),
    webDir: path.resolve(env.WEB_DIR || 'dist/web'),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: trustProxy(env.TRUST_PROXY),
    serverTiming: bool(env.SERVER_TIMING, false),
    explainQueries: bool(env.EXPLAIN_QUERIES, false),
    corsOrigins: (env.CORS_ORIGINS || '').split(',').map((s) => s.trim()).filter(Boolean),
    loginMaxFailuresPerEmail: int('LOGIN_MAX_FAILURES_PER_EMAIL', env.LOGIN_MAX_FAILURES_PER_EMAIL, 5),
    loginMaxFailuresPerIp: int('LOGIN_MAX_FAILURES_PER_IP', env.LOGIN_MAX_FAILURES_PER_IP, 30),
    loginWindowMinutes: int('LOGIN_WINDOW_MINUTES', env.LOGIN_WINDOW_MINUTES, 15),
  };
}

export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}

import { randomBytes } from 'node:crypto';
import net from 'node:net';
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
   * A request carrying `x-capture-queries: 1` gets the statements it ran (text and parameter
   * values) back in a header, for the benchmark's pgbench replay. Never in production: the server
   * refuses to start with it (and the app ignores it there).
   */
  captureQueries: boolean;
  /**
   * Behind a load balancer: how far to trust X-Forwarded-For for the client address (login rate
   * limit, audit): a number of proxy hops (1 = the balancer's own entry), or addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /** Failed sign-ins for one email from one address within the window before that pair gets 429. */
  loginMaxFailuresPerEmail: number;
  /** Failed sign-ins from one address (any email) before that address gets 429. */
  loginMaxFailuresPerIp: number;
  /**
   * Failed sign-ins for one email from all addresses together after which the account is slowed:
   * an address that has itself failed for it waits before each further attempt (never a clean address).
   */
  loginMaxFailuresPerAccount: number;
  /** The first such wait (seconds); it doubles with every further loginMaxFailuresPerAccount failures, up to the window. */
  loginAccountDelaySeconds: number;
  loginWindowMinutes: number;
  /** Reset mails per email, and forgot-password calls per address, within the sign-in window. */
  resetMaxPerEmail: number;
  resetMaxPerIp: number;
  /** Registrations (accepted or refused) per address within the sign-in window before 429. */
  registerMaxPerIp: number;
  /** Where the panel is reached from outside: reset and invite links are built from it, never from request headers. */
  publicUrl: string;
  /** False when PUBLIC_URL was not given (development falls back to http://localhost:PORT; production refuses to start). */
  publicUrlSet: boolean;
  /** smtp://user:pass@host:port or smtps://…; unset = the development log mailer. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The Admin role must sign in with a second factor (default: in production). */
  adminTwoFactor: boolean;
  /** Money movements above this (paise) wait for a second operator (four eyes). */
  approvalThresholdPaise: number;
  /** Credits one operator may make per business day (paise), approvals included. */
  dailyCreditLimitPaise: number;
  /** Debits (withdrawals) one operator may make per business day (paise), approvals included. */
  dailyDebitLimitPaise: number;
  /**
   * The secret of the bank payout provider's webhook signature (HMAC-SHA256 of the raw body,
   * BANK_WEBHOOK_SECRET; docs/bank-transfers.md). Development has a default; production has none
   * unless set, and then refuses every webhook.
   */
  bankWebhookSecret: string;
  /** Who sends a released batch: 'file' (the operator uploads the instruction file) or 'simulator' (the built-in provider, demo and tests). */
  bankProvider: 'file' | 'simulator';
  /** PostgreSQL statement timeout for request work (ms); 0 = none. */
  statementTimeoutMs: number;
  /**
   * What any plan or settings version may pay, whatever an operator saves (issue 22): deployment
   * bounds the panel cannot change.
   */
  bounds: CompensationBounds;
  /** The income engine's schedule (daily payouts, royalty, rewards, ranks; ENGINE_SCHEDULE=off turns it off). */
  engineSchedule: boolean;
  /**
   * GET /metrics (Prometheus) exists only when one of these is set: the bearer token a scraper
   * sends (METRICS_TOKEN), and/or the addresses it may come from (METRICS_ALLOW). Either grants.
   */
  metricsToken: string | undefined;
  metricsAllow: MetricsSubnet[];
}

/** One METRICS_ALLOW entry: an address is a subnet of its whole length (/32, /128). */
export interface MetricsSubnet {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export interface CompensationBounds {
  /** A plan's cap at most this many times its price (PLAN_MAX_CAP_MULTIPLE). */
  capMultiple: number;
  /** A plan's daily payout at most this % of its price (PLAN_MAX_DAILY_PERCENT). */
  dailyPercent: number;
  /** Level income at most this % of the price over the 10 levels together (LEVEL_INCOME_MAX_PERCENT). */
  levelIncomePercent: number;
  /** TDS on daily payouts at least this % (TDS_MIN_PERCENT). */
  tdsMinPercent: number;
}

/** A non-negative number (decimals allowed) from the environment. */
function decimal(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of at least 0, got "${value}"`);
  return n;
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

/** A whole number of rupees from the environment, as paise. */
function rupeesSetting(name: string, value: string | undefined, fallbackRupees: number): number {
  return int(name, value, fallbackRupees) * 100;
}

/** A scraper's bearer token: long enough not to be guessed, and one word (it travels in a header). */
function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\S{16,256}$/.test(value)) throw new Error('METRICS_TOKEN must be 16 to 256 characters without spaces');
  return value;
}

/** METRICS_ALLOW: comma-separated addresses or CIDR ranges (127.0.0.1,10.0.0.0/8,::1). */
function metricsAllow(value: string | undefined): MetricsSubnet[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((entry) => {
    const [network, bits, ...rest] = entry.split('/');
    const version = net.isIP(network);
    const max = version === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (version === 0 || rest.length > 0 || !(prefix >= 0 && prefix <= max)) {
      throw new Error(`METRICS_ALLOW: "${entry}" is not an IP address or CIDR range (e.g. 127.0.0.1,10.0.0.0/8)`);
    }
    return { network, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
  });
}

function trustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value === 'true' ? true : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 8009);
  const production = env.NODE_ENV === 'production';
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    allowEmbeddedDb: bool(env.ALLOW_EMBEDDED_DB, false),
    production,
    adminEmail: (env.ADMIN_EMAIL || 'admin@backoffice.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    allowRegistration: bool(env.ALLOW_REGISTRATION, true),
    seedMembers: int('SEED_MEMBERS', env.SEED_MEMBERS, 300),
    webDir: path.resolve(env.WEB_DIR || 'dist/web'),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: trustProxy(env.TRUST_PROXY),
    serverTiming: bool(env.SERVER_TIMING, false),
    explainQueries: bool(env.EXPLAIN_QUERIES, false),
    captureQueries: bool(env.CAPTURE_QUERIES, false),
    corsOrigins: (env.CORS_ORIGINS || '').split(',').map((s) => s.trim()).filter(Boolean),
    loginMaxFailuresPerEmail: int('LOGIN_MAX_FAILURES_PER_EMAIL', env.LOGIN_MAX_FAILURES_PER_EMAIL, 5),
    loginMaxFailuresPerIp: int('LOGIN_MAX_FAILURES_PER_IP', env.LOGIN_MAX_FAILURES_PER_IP, 30),
    loginMaxFailuresPerAccount: int('LOGIN_MAX_FAILURES_PER_ACCOUNT', env.LOGIN_MAX_FAILURES_PER_ACCOUNT, 10),
    loginAccountDelaySeconds: int('LOGIN_ACCOUNT_DELAY_SECONDS', env.LOGIN_ACCOUNT_DELAY_SECONDS, 60),
    loginWindowMinutes: int('LOGIN_WINDOW_MINUTES', env.LOGIN_WINDOW_MINUTES, 15),
    resetMaxPerEmail: int('RESET_MAX_PER_EMAIL', env.RESET_MAX_PER_EMAIL, 3),
    resetMaxPerIp: int('RESET_MAX_PER_IP', env.RESET_MAX_PER_IP, 20),
    registerMaxPerIp: int('REGISTER_MAX_PER_IP', env.REGISTER_MAX_PER_IP, 10),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    publicUrlSet: Boolean(env.PUBLIC_URL),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Backoffice <no-reply@backoffice.local>',
    adminTwoFactor: bool(env.ADMIN_TWO_FACTOR, production),
    approvalThresholdPaise: rupeesSetting('APPROVAL_THRESHOLD', env.APPROVAL_THRESHOLD, 10_000),
    dailyCreditLimitPaise: rupeesSetting('DAILY_CREDIT_LIMIT', env.DAILY_CREDIT_LIMIT, 1_000_000),
    dailyDebitLimitPaise: rupeesSetting('DAILY_DEBIT_LIMIT', env.DAILY_DEBIT_LIMIT, 1_000_000),
    bankWebhookSecret: env.BANK_WEBHOOK_SECRET || (production ? '' : 'dev-bank-webhook-secret'),
    bankProvider: env.BANK_PROVIDER === 'simulator' ? 'simulator' : 'file',
    statementTimeoutMs: int('STATEMENT_TIMEOUT_MS', env.STATEMENT_TIMEOUT_MS, 15_000),
    bounds: {
      capMultiple: decimal('PLAN_MAX_CAP_MULTIPLE', env.PLAN_MAX_CAP_MULTIPLE, 3),
      dailyPercent: decimal('PLAN_MAX_DAILY_PERCENT', env.PLAN_MAX_DAILY_PERCENT, 2),
      levelIncomePercent: decimal('LEVEL_INCOME_MAX_PERCENT', env.LEVEL_INCOME_MAX_PERCENT, 30),
      tdsMinPercent: decimal('TDS_MIN_PERCENT', env.TDS_MIN_PERCENT, 2),
    },
    engineSchedule: bool(env.ENGINE_SCHEDULE, true),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    metricsAllow: metricsAllow(env.METRICS_ALLOW),
  };
}

export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}

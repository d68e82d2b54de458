import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgSequence, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './members.ts';

/** What a mailed single-use link does (password_resets.purpose). */
export type LinkPurpose = 'reset' | 'invite' | 'confirm' | 'email';

/** Server-side sessions: only the SHA-256 of the bearer token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** A public handle for "your sessions" (the token hash is never shown). */
    id: bigint('id', { mode: 'number' }).notNull().unique().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** 'full', or 'enrol': signed in with a password but must set up two-factor before anything else. */
    stage: text('stage').$type<'full' | 'enrol'>().notNull().default('full'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * 'reset' (forgot password), 'invite' (a staff member sets their first password), 'confirm'
     * (a self-registration's email link, issue 22: it sets no password) or 'email' (an account's
     * new sign-in email, mailed to that address: the email changes when it is followed).
     */
    purpose: text('purpose').$type<LinkPurpose>().notNull().default('reset'),
    /** The address an 'email' link makes the account's sign-in email. */
    newEmail: text('new_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Housekeeping removes expired links (src/server/housekeeping.ts).
  (t) => [index('password_resets_expires_idx').on(t.expiresAt), index('password_resets_user_idx').on(t.userId)],
);

/**
 * TOTP (RFC 6238) for a staff account: the secret, when enrolment was confirmed (null while it is
 * being set up), the hashes of unused recovery codes, and the last time step accepted (a code is
 * never accepted twice).
 */
export const twoFactor = pgTable('two_factor', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(() => users.userId),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Counted attempts over a window, shared by every server copy (modules/auth/attempts.ts reserves them): failed sign-ins ('login:<email>|<address>', 'login-ip:', 'login-email:'), reset mails ('reset-email:', 'reset-ip:'), registrations ('register-ip:'), wrong two-factor codes ('totp:<userId>') and wrong passwords on /account ('password:<userId>'). */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_key_idx').on(t.key, t.createdAt), index('login_failures_created_idx').on(t.createdAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    actorId: bigint('actor_id', { mode: 'number' }),
    /** The actor's name when it acted: renaming someone later does not rewrite history. */
    actorName: text('actor_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entity, t.entityId),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    // Date ranges and the audit list's sorts (issue 15): each column with the id that breaks its ties.
    index('audit_log_created_id_idx').on(t.createdAt, t.id),
    index('audit_log_action_id_idx').on(t.action, t.id),
    index('audit_log_entity_id_idx').on(t.entity, t.id),
  ],
);

/** The first answer to a money POST, replayed for a retry with the same key (decisions.md). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    actorId: bigint('actor_id', { mode: 'number' }).notNull(),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.actorId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Live members per level and rank (rank_key 0 = no rank), kept by triggers on users
 * (drizzle/functions/user_segments.sql): the users list's level and rank filters count from
 * here, not over the table.
 */
export const userSegments = pgTable(
  'user_segments',
  {
    level: integer('level').notNull(),
    rankKey: integer('rank_key').notNull(),
    live: bigint('live', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.level, t.rankKey] })],
);

/**
 * How many live members sit at each depth (1–10) below a member, kept by triggers on users
 * (drizzle/functions/downline_counts.sql): the downline tree's per-level counts without walking
 * a network of 100,000.
 * `first_members` holds the lowest ids at that depth (up to 100, deleted ones included),
 * so the tree's first page of each level is read, not walked. Ids only grow, so once full it
 * rarely changes.
 */
export const downlineCounts = pgTable(
  'downline_counts',
  {
    ancestorId: bigint('ancestor_id', { mode: 'number' }).notNull(),
    depth: smallint('depth').notNull(),
    members: bigint('members', { mode: 'number' }).notNull().default(0),
    firstMembers: bigint('first_members', { mode: 'number' }).array().notNull().default(sql`'{}'::int8[]`),
  },
  (t) => [primaryKey({ columns: [t.ancestorId, t.depth] })],
);

/**
 * Counters kept by triggers on users and memberships (drizzle/functions/stat_counters.sql) so the
 * dashboard never counts a million rows per request. A counter is the sum of its 8 shards: each
 * writing transaction adds to one (its transaction id mod 8), so concurrent writers (activations)
 * rarely wait on the same row.
 */
export const statCounters = pgTable(
  'stat_counters',
  {
    name: text('name').notNull(),
    shard: smallint('shard').notNull().default(0),
    value: bigint('value', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.name, t.shard] })],
);

/**
 * The count of live members matching a frequent search (a term of 1,000 matches or more, with its
 * level and rank filters; 0 = any), kept exact by triggers on users
 * (drizzle/functions/search_counts.sql, by the rule of src/server/db/member-search.ts) and recounted
 * after ten minutes: "Total Users: N" for "sharma" without counting 30,000 rows per request.
 */
export const searchCounts = pgTable(
  'search_counts',
  {
    term: text('term').notNull(),
    levelKey: integer('level_key').notNull(),
    rankKey: integer('rank_key').notNull(),
    matches: bigint('matches', { mode: 'number' }).notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.term, t.levelKey, t.rankKey] })],
);

/**
 * The digest of drizzle/functions/*.sql (and the journal) last applied by migrate(), one row:
 * the trigger functions are re-applied only when a file changed (src/server/db/functions.ts).
 */
export const dbFunctions = pgTable('db_functions', {
  digest: text('digest').primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The version of everything a session's permissions are read from (issue 23): every statement that
 * changes a session, an account's role or standing, a role, its permissions or two-factor takes the
 * next value and announces it on the channel 'auth_changed' (drizzle/functions/auth_changes.sql).
 * A sequence, not a row: it never makes two transactions wait for each other.
 */
export const authEpoch = pgSequence('auth_epoch');

/**
 * The API server copies running on this database, and the auth version each has applied to its
 * session cache (modules/auth/session-cache.ts). A copy beats every few seconds; one silent for
 * longer is no longer waited for. A request that changed what sessions may do answers only when
 * every live copy has applied the change, so the very next request sees it on any copy.
 */
export const serverCopies = pgTable('server_copies', {
  id: text('id').primaryKey(),
  appliedVersion: bigint('applied_version', { mode: 'number' }).notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../lib/context.ts';

/**
 * The signed-in accounts this server copy has seen, so that a read costs no round trip for its
 * session (issue 23), while a change to what a session may do still applies on the very next
 * request on every copy:
 *
 * - Every statement that changes a session, an account's standing, a role, its permissions or
 *   two-factor announces a new auth version on 'auth_changed' (drizzle/functions/auth_changes.sql).
 *   On hearing one, a copy empties its cache and records the version it has applied in
 *   server_copies.
 * - A request that changed them answers only after every live copy has applied a version taken
 *   after its change committed (`settle`): by then each copy has emptied its cache, because
 *   announcements reach every listener in commit order. On PostgreSQL the trigger also tells the
 *   connection that made the change (a notice, db/client.ts `authChangesHeard`), so only a request
 *   during which such a notice was heard waits; on PGlite every write does (plugins/auth.ts).
 * - While a copy cannot listen (the connection dropped), it caches nothing and reads every
 *   session from the database, as before; it stops beating, so the others stop waiting for it.
 *   A connection that died without a word is found by the beat (beatOnce): within a beat and
 *   DEAF_AFTER_MS of a change it did not hear.
 */
export interface SessionCache {
  /** The cached account of a token hash, if it is still current and its session has not expired. */
  get(tokenHash: string): AuthContext | undefined;
  /** The version to pass to `put` for a session read now (read it before the query). */
  readonly version: number;
  put(tokenHash: string, auth: AuthContext, expiresAt: Date, version: number): void;
  /** After a request that may have changed sessions: waits until every live copy has applied it. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'auth_changed';
/** A copy beats this often; one silent for LIVE_SECONDS is no longer waited for. */
const BEAT_MS = 5_000;
const LIVE_SECONDS = 15;
/** The longest a request waits for the other copies before it answers anyway. */
const SETTLE_TIMEOUT_MS = 2_000;
/** Entries kept at most; the oldest go first. */
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = [250, 1_000, 5_000, 15_000];
/**
 * How long after a beat that found a version announced but not heard the copy looks again; still
 * not heard then, its listener is deaf. An announcement reaches a live listener within
 * milliseconds of its commit, and a version is taken (and visible) just before it is announced.
 */
const DEAF_AFTER_MS = 1_000;

const CURRENT_VERSION = `select case when is_called then last_value else 0 end::int8 as v from auth_epoch`;

interface Entry {
  auth: AuthContext;
  expiresAt: number;
  version: number;
}

type Log = { warn(o: object, m: string): void };
/** The auth epoch's current value (CURRENT_VERSION). */
type VersionRow = { v: number | string };
/** The auth epoch's next value, just taken and announced. */
type EpochRow = { w: number | string };
/** Server copies that have not applied a version yet. */
type BehindRow = { behind: number };

export async function startSessionCache(database: Database, log: Log): Promise<SessionCache> {
  const id = randomUUID();
  const entries = new Map<string, Entry>();
  let listening = false;
  let version = 0;
  let closed = false;
  let stopListening: (() => Promise<void>) | null = null;
  let beat: NodeJS.Timeout | null = null;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;
  let probe: NodeJS.Timeout | null = null;
  /** Waiters for this copy to apply a version. */
  const waiting = new Set<{ atLeast: number; done: () => void }>();

  const record = () =>
    database
      .query(
        `insert into server_copies (id, applied_version, seen_at) values ($1, $2, now())
         on conflict (id) do update set applied_version = greatest(server_copies.applied_version, excluded.applied_version), seen_at = now()`,
        [id, version],
      )
      .catch((error: Error) => log.warn({ err: error }, 'session cache: could not record this copy'));

  function apply(payload: string) {
    entries.clear();
    const heard = Number(payload);
    if (Number.isSafeInteger(heard) && heard > version) version = heard;
    for (const w of waiting) {
      if (version >= w.atLeast) {
        waiting.delete(w);
        w.done();
      }
    }
    void record();
  }

  /**
   * A beat: this copy is alive, and has applied `version`. A listening connection can also die
   * without a word (an idle connection dropped by a NAT or a balancer): it then hears nothing while
   * changes go on, and a revoked session would stay in the cache. So each beat reads the version
   * announced; if it has not been heard DEAF_AFTER_MS later, the listener is treated as lost (the
   * cache emptied, every session read from the database until it listens again).
   */
  async function beatOnce() {
    await record();
    if (probe || !listening) return;
    const [{ v }] = await database.query<VersionRow>(CURRENT_VERSION).catch(() => [{ v: 0 }]);
    const announced = Number(v);
    if (announced <= version) return;
    probe = setTimeout(() => {
      probe = null;
      if (listening && version < announced) lost(new Error(`The listening connection did not hear auth version ${announced}`));
    }, DEAF_AFTER_MS);
    probe.unref();
  }

  function lost(error: Error) {
    if (!listening && !stopListening) return;
    listening = false;
    entries.clear();
    if (beat) clearInterval(beat);
    beat = null;
    if (probe) clearTimeout(probe);
    probe = null;
    const stop = stopListening;
    stopListening = null;
    void stop?.().catch(() => {});
    log.warn({ err: error }, 'session cache: lost the auth_changed listener; reading every session from the database until it is back');
    void database.query('delete from server_copies where id = $1', [id]).catch(() => {});
    schedule();
  }

  function schedule() {
    if (closed || retry) return;
    const delay = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)];
    failures += 1;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, delay);
    retry.unref();
  }

  async function listen() {
    try {
      // Listen first, then read the version: a change in between is heard, not missed.
      stopListening = await database.listen(CHANNEL, apply, lost);
      if (closed) return void (await stopListening());
      const [{ v }] = await database.query<VersionRow>(CURRENT_VERSION);
      version = Math.max(version, Number(v));
      entries.clear();
      await database.query(`delete from server_copies where seen_at < now() - interval '1 hour'`);
      await record();
      listening = true;
      failures = 0;
      beat = setInterval(() => void beatOnce(), BEAT_MS);
      beat.unref();
    } catch (error) {
      const stop = stopListening;
      stopListening = null;
      await stop?.().catch(() => {});
      if (closed) return;
      log.warn({ err: error }, 'session cache: could not listen for auth changes; retrying');
      schedule();
    }
  }

  /** Resolves when this copy has applied `atLeast`, or after `ms`. */
  function applied(atLeast: number, ms: number): Promise<void> {
    if (version >= atLeast) return Promise.resolve();
    return new Promise((resolve) => {
      const w = { atLeast, done: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => (waiting.delete(w), resolve()), ms);
      waiting.add(w);
    });
  }

  type Check = { v: number | string; least: number | string | null };
  let inFlight: Promise<Check> | null = null;
  let queued: Promise<Check> | null = null;
  /**
   * The last version announced and the least any live copy has applied, read by a query that
   * starts after the call: concurrent writes share one (those arriving while one is under way
   * share the next), so a burst of writes costs two queries, not one each.
   */
  function announcedAndApplied(): Promise<Check> {
    if (!inFlight) {
      inFlight = database
        .query<Check>(
          `select (${CURRENT_VERSION}) as v, (select min(applied_version) from server_copies
                   where seen_at > now() - make_interval(secs => ${LIVE_SECONDS}))::int8 as least`,
        )
        .then(([row]) => row)
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    }
    queued ??= inFlight.catch(() => undefined).then(() => {
      queued = null;
      return announcedAndApplied();
    });
    return queued;
  }

  await listen();

  return {
    get version() {
      return version;
    },
    get(tokenHash) {
      if (!listening) return undefined;
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (entry.version !== version || entry.expiresAt <= Date.now()) {
        entries.delete(tokenHash);
        return undefined;
      }
      return entry.auth;
    },
    put(tokenHash, auth, expiresAt, at) {
      // A change heard while the session was being read makes the read stale: not kept.
      if (!listening || at !== version) return;
      entries.delete(tokenHash);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(tokenHash, { auth, expiresAt: expiresAt.getTime(), version: at });
    },
    async settle() {
      const { v, least } = await announcedAndApplied();
      // Every live copy has applied everything announced: no change of this request's is in flight.
      if (least !== null && Number(v) <= Number(least)) return;
      // A version taken now is announced after every change committed before it: a copy that has
      // applied it has emptied its cache of them all.
      const [{ w }] = await database.query<EpochRow>(
        `select w, pg_notify('${CHANNEL}', w::text) from (select nextval('auth_epoch')::int8 as w) s`,
      );
      const target = Number(w);
      const deadline = Date.now() + SETTLE_TIMEOUT_MS;
      await applied(target, SETTLE_TIMEOUT_MS);
      for (let pause = 2; Date.now() < deadline; pause = Math.min(pause * 2, 50)) {
        const [{ behind }] = await database.query<BehindRow>(
          `select count(*)::int as behind from server_copies
            where applied_version < $1 and seen_at > now() - make_interval(secs => ${LIVE_SECONDS})`,
          [target],
        );
        if (behind === 0) return;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      log.warn({ version: target }, 'session cache: a server copy did not apply an auth change in time');
    },
    async close() {
      closed = true;
      if (beat) clearInterval(beat);
      if (retry) clearTimeout(retry);
      if (probe) clearTimeout(probe);
      listening = false;
      entries.clear();
      const stop = stopListening;
      stopListening = null;
      await stop?.().catch(() => {});
      await database.query('delete from server_copies where id = $1', [id]).catch(() => {});
    },
  };
}

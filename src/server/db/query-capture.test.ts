import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestContext } from '../test/harness.ts';
import { productionSettingsProblems } from './open.ts';
import { CAPTURED_QUERIES_HEADER, decodeCapturedQueries } from './query-timing.ts';

// CAPTURE_QUERIES (issue 23): the benchmark gets the statements one request ran, to replay them
// with pgbench. Only a server started with it answers, and only requests that ask.
let capturing: TestContext;
let token: string;
let term: string;
const usersPage = () => `/api/users/getAllusers?search=${encodeURIComponent(term)}&page=1&limit=2`;
beforeAll(async () => {
  capturing = await createTestApp({ members: 30, config: { captureQueries: true } });
  token = await capturing.login();
  // A surname several seeded members share: the page has rows.
  const [row] = await capturing.database.query<{ term: string }>(
    `select lower(split_part(full_name, ' ', 2)) as term from users where level > 0 group by 1 order by count(*) desc, 1 limit 1`,
  );
  term = row.term;
  expect(term.length).toBeGreaterThan(2);
});
afterAll(() => capturing.close());

describe('CAPTURE_QUERIES', () => {
  it('hands a request asking with x-capture-queries: 1 the statements it ran, with values that reproduce its rows', async () => {
    const res = await capturing.app.inject({ method: 'GET', url: usersPage(), headers: { authorization: `Bearer ${token}`, 'x-capture-queries': '1' } });
    expect(res.statusCode).toBe(200);
    const captured = decodeCapturedQueries(String(res.headers[CAPTURED_QUERIES_HEADER]));
    expect(captured.length).toBeGreaterThanOrEqual(2);
    for (const q of captured) {
      expect(typeof q.text).toBe('string');
      expect(q.params.every((p) => p === null || typeof p === 'string')).toBe(true);
      expect(q.rows).not.toBeNull();
    }
    // The search term went to the database as a parameter, in the form node-postgres sends it.
    const search = captured.find((q) => q.params.some((p) => p?.includes(term)));
    expect(search).toBeDefined();
    // Run again with the captured text and values, every statement returns the rows it returned.
    for (const q of captured) {
      expect((await capturing.database.query(q.text, q.params)).length).toBe(q.rows);
    }
    const page = res.json() as { users: unknown[] };
    expect(page.users.length).toBeGreaterThan(0);
    expect(captured.map((q) => q.rows)).toContain(page.users.length);
  });

  it('sends nothing to a request that does not ask', async () => {
    const res = await capturing.app.inject({ method: 'GET', url: usersPage(), headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers[CAPTURED_QUERIES_HEADER]).toBeUndefined();
    expect(res.headers['server-timing']).toBeUndefined();
  });
});

describe('without CAPTURE_QUERIES, or in production', () => {
  it('a server started without it ignores the header', async () => {
    const plain = await createTestApp({ config: { serverTiming: true } });
    try {
      const res = await plain.app.inject({
        method: 'GET', url: '/api/users/getAllUser', headers: { authorization: `Bearer ${await plain.login()}`, 'x-capture-queries': '1' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['server-timing']).toBeDefined();
      expect(res.headers[CAPTURED_QUERIES_HEADER]).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('a production server refuses to start with it, and an app built for production ignores it anyway', async () => {
    const complete = { NODE_ENV: 'production', PUBLIC_URL: 'https://bo.example.com', SMTP_URL: 'smtp://mail.example.com:587' };
    expect(productionSettingsProblems(loadConfig(complete))).toEqual([]);
    expect(productionSettingsProblems(loadConfig({ ...complete, CAPTURE_QUERIES: 'true' }))).toEqual([
      expect.stringMatching(/^CAPTURE_QUERIES is for the benchmark only/),
    ]);
    const production = await createTestApp({ config: { captureQueries: true, production: true, adminTwoFactor: false } });
    try {
      const res = await production.app.inject({
        method: 'GET', url: '/api/users/getAllUser', headers: { authorization: `Bearer ${await production.login()}`, 'x-capture-queries': '1' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers[CAPTURED_QUERIES_HEADER]).toBeUndefined();
    } finally {
      await production.close();
    }
  });
});

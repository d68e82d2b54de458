import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the TEST_DATABASE_URL server, named `<prefix>_<random>`, and how to
 * drop it (connections still open are closed by the drop).
 */
export async function throwawayPostgres(prefix = 'bo_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(server, `drop database if exists ${name} with (force)`) };
}

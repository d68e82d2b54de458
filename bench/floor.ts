import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CapturedQuery } from '../src/server/db/query-timing.ts';
import { freePort } from '../e2e/support/server.ts';

/** A running floor server (bench/floor-server.ts). */
export interface Floor {
  /** The address that runs read `index`'s statements (its place in the list it was started with). */
  url(index: number): string;
  stop(): Promise<void>;
}

/** How long the floor server may take to listen (it starts through tsx, on a busy machine). */
const START_TIMEOUT_MS = 60_000;

/**
 * Starts the floor server on `databaseUrl` with these reads' statements (written to `dir`), in a
 * process of its own like the app's server, so that the load generator measures both alike.
 */
export async function startFloor(databaseUrl: string, reads: CapturedQuery[][], dir: string): Promise<Floor> {
  const file = path.join(dir, 'floor-reads.json');
  fs.writeFileSync(file, JSON.stringify(reads));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'floor-server.ts')], {
    env: { ...process.env, FLOOR_READS: file, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the floor server did not listen within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    function fail(err: Error) {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${err.message}:\n${output}`));
    }
    child.stdout!.on('data', (d: Buffer) => {
      output += d;
      if (output.includes('listening\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => (output += d));
    child.once('exit', (code) => fail(new Error(`the floor server exited with ${code}`)));
    child.once('error', fail);
  });
  return {
    url: (index) => `http://127.0.0.1:${port}/${index}`,
    async stop() {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}

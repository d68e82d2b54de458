import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { productionSettingsProblems } from './open.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('production start-up checks (issue 13: links and mail)', () => {
  it('names PUBLIC_URL and SMTP_URL when a production start lacks them', () => {
    const problems = productionSettingsProblems(loadConfig({ NODE_ENV: 'production' }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^NODE_ENV=production needs PUBLIC_URL/);
    expect(problems[1]).toMatch(/^NODE_ENV=production needs SMTP_URL/);
    expect(productionSettingsProblems(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://bo.example.com' }))).toEqual([
      problems[1],
    ]);
  });

  it('asks nothing of a complete production start or of a development start', () => {
    const complete = { NODE_ENV: 'production', PUBLIC_URL: 'https://bo.example.com', SMTP_URL: 'smtp://mail.example.com:587' };
    expect(productionSettingsProblems(loadConfig(complete))).toEqual([]);
    expect(productionSettingsProblems(loadConfig({}))).toEqual([]);
  });

  it('the server refuses to start in production without them, with the reason, before touching a database', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '1', DATA_DIR: '/nonexistent/backoffice-test' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('NODE_ENV=production needs PUBLIC_URL');
    expect(run.stderr).toContain('NODE_ENV=production needs SMTP_URL');
    expect(run.stderr).toContain('Not started.');
  }, 60_000);
});

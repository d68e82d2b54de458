import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPgliteTemplate } from './pglite-template.ts';
import { buildPostgresTemplate, dropPostgresTemplates } from './seeded-templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A file holding the migrated PGlite template every test file's fresh database is loaded from;
     * the seeded templates of each member count are kept beside it.
     */
    pgliteTemplate: string;
    /** The PostgreSQL template database (migrated, bootstrapped) every test file's database is cloned from. */
    postgresTemplate: string;
  }
}

/**
 * Once per run of the server tests: build the template database and hand it to every test file
 * (each still gets a database of its own, loaded or cloned from it). The PostgreSQL project
 * (TEST_DB=postgres) gets a template database on the TEST_DATABASE_URL server, dropped at the end
 * with the seeded templates made from it.
 */
export default async function setup(project: TestProject) {
  const server = process.env.TEST_DATABASE_URL;
  if (project.config.env?.TEST_DB === 'postgres' && server) {
    const name = `bo_tpl_${randomBytes(5).toString('hex')}`;
    await buildPostgresTemplate(server, name);
    project.provide('postgresTemplate', name);
    return () => dropPostgresTemplates(server, name);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await (await buildPgliteTemplate()).arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

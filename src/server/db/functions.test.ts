import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { FUNCTIONS_FOLDER, readFunctionFiles } from './functions.ts';
import { memberSearchFunctionSql } from './member-search.ts';
import { emptyTestDatabase } from './test-database.ts';

// drizzle/functions/ holds the one current definition of every trigger function and trigger: after
// migrate, the database's own text of each (pg_get_functiondef, pg_get_triggerdef) is in a file.
let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await emptyTestDatabase());
  await database.migrate();
});
afterAll(() => drop());

const OUR_FUNCTIONS = `select p.proname as name, pg_get_functiondef(p.oid) as def
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
 where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
 order by 1`;
const OUR_TRIGGERS = `select t.tgname as name, pg_get_triggerdef(t.oid) as def from pg_trigger t where not t.tgisinternal order by 1`;

const functions = () => database.query<{ name: string; def: string }>(OUR_FUNCTIONS);
const definition = async (name: string) => (await functions()).find((f) => f.name === name)?.def;
/** A function or trigger as a file states it: pg_get_*def's text, ended by a semicolon. */
const statement = (def: string) => `${def.trimEnd().replace(/^CREATE TRIGGER /, 'CREATE OR REPLACE TRIGGER ')};`;

describe('trigger functions (drizzle/functions)', () => {
  it("each function's and trigger's text in the database is its file's text, and every file's is in the database", async () => {
    const { files } = readFunctionFiles();
    const all = files.map((f) => f.text).join('\n');
    const fns = await functions();
    const triggers = await database.query<{ name: string; def: string }>(OUR_TRIGGERS);
    expect(fns.length).toBeGreaterThan(20);
    expect(triggers.length).toBeGreaterThan(20);
    for (const { name, def } of [...fns, ...triggers]) {
      const holders = files.filter((f) => f.text.includes(statement(def)));
      expect(holders.map((f) => f.name), name).toHaveLength(1);
    }
    const declaredFunctions = [...all.matchAll(/^CREATE OR REPLACE FUNCTION public\.(\w+)\(/gm)].map((m) => m[1]);
    const declaredTriggers = [...all.matchAll(/^CREATE OR REPLACE TRIGGER (\w+) /gm)].map((m) => m[1]);
    expect(declaredFunctions.sort()).toEqual(fns.map((f) => f.name).sort());
    expect(declaredTriggers.sort()).toEqual(triggers.map((t) => t.name).sort());
  });

  it('member_search_match.sql is generated from the one member-search rule (npm run db:functions)', () => {
    expect(fs.readFileSync(path.join(FUNCTIONS_FOLDER, 'member_search_match.sql'), 'utf8')).toBe(memberSearchFunctionSql());
  });

  it('a changed file is applied by the next migrate, an unchanged one is not applied again', async () => {
    const appliedAt = async () => (await database.query<{ at: Date }>('select applied_at as at from db_functions'))[0].at;
    const first = await appliedAt();
    await database.migrate();
    expect(await appliedAt()).toEqual(first);

    const edited = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-functions-'));
    try {
      fs.cpSync(FUNCTIONS_FOLDER, edited, { recursive: true });
      const file = path.join(edited, 'ledger_immutable.sql');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("'ledger_entries rows are immutable'", "'ledger rows never change'"));
      await database.migrate({ functionsFolder: edited });
      expect(await definition('ledger_immutable')).toContain("'ledger rows never change'");
    } finally {
      fs.rmSync(edited, { recursive: true, force: true });
    }
    await database.migrate();
    expect(await definition('ledger_immutable')).toContain("'ledger_entries rows are immutable'");
  });
});

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * Lint for the whole repository, run by `npm test` (issue 14). typescript-eslint's `recommended`
 * set, not `recommended-type-checked`: the typed rules build a TypeScript program per project and
 * multiply lint time, while `tsc` in `npm test` already checks types (`eslint .` takes about 12 s
 * of CPU). One rule is tuned (no-unused-vars, below); the rest gave no noise. Where the `{} extends T`
 * idiom (T has no required field) meets no-empty-object-type, disable it on that line, saying so.
 *
 * The import boundaries (core no-restricted-imports; patterns are matched against the import
 * string, so relative paths are spelled out per folder):
 * - src/contract imports nothing but zod and its own files: server and web both read it.
 * - src/server never imports src/web; services and repositories never import fastify (a service
 *   takes a plain Ctx, lib/context.ts, and is callable without HTTP).
 * - src/web/features/<x> does not import src/web/app (app/ composes features, not the reverse:
 *   route paths live in lib/paths.ts).
 * - A feature's public surface, the only files another feature may import:
 *     features/<x>/<x>.api.ts        its typed callers and query keys;
 *     features/auth/auth-context.tsx the signed-in session every screen reads.
 *   app/ may import those, the pages (features/<x>/*-page.tsx, for router.tsx) and the header's
 *   member search (features/network/member-search.tsx). A test may also import another
 *   feature's test fakes (features/<x>/fake-*.ts).
 * - The web reaches the API only through the contract's typed client (lib/api-client.ts): no
 *   fetch() elsewhere. Tests may mock fetch.
 * - No import loops (import-x/no-cycle over src, bench, scripts and e2e; `import type` counts too,
 *   except where a type alone closes the loop, which TypeScript erases).
 * - Services and repositories never import plugins/ (Fastify plugins): shared code a plugin and a
 *   service both need lives in lib/ or in the module that owns it (e.g. modules/auth/session.ts).
 * - A raw statement's rows have a named type, not an inline object type in `rowsOf<…>` /
 *   `query<…>` (anywhere in the type argument): a row that is table columns is derived from the
 *   schema (`Pick<typeof users.$inferSelect, 'userId' | 'fullName'>`), so a renamed column does
 *   not compile; a computed one is a named type beside the query (or db/rows.ts: CountRow, …).
 *   Tests (and their kits, src/server/test/) are free to spell a row inline.
 * - A server module reaches another module only through its <m>.service.ts (tests and test kits
 *   excepted), or a file listed in publicModuleFiles.
 * - Money: approvals/ imports no other module at all: it replays a stored request through the
 *   registry of movements (lib/money/movements.ts, docs/structure.md "A money movement").
 *   lib/money/ imports no module, no Fastify, no plugins, except that the registry's list
 *   (movements.ts) imports each module's <m>.movements.ts.
 */

const features = 'features/[^/]+/';
// A later block's no-restricted-imports replaces an earlier one for the same file, so each web block repeats this one.
const webNotServer = { regex: '^(\\.\\./)+server(/|$)', message: 'The web reads the contract, never the server.' };

/** Another feature's files, seen from a file in features/<x>/, except its public surface (and, for tests, its fakes). */
const otherFeatureInternals = (forTests) => ({
  regex: `^\\.\\./(?!\\.)(?![^/]+/[^/]+\\.api(\\.ts)?$)(?!auth/auth-context(\\.tsx)?$)${forTests ? '(?![^/]+/fake-[^/]+$)' : ''}`,
  message: `A feature may import another feature only through its public surface: features/<x>/<x>.api.ts or features/auth/auth-context.tsx${forTests ? ' (tests: also its fake-*.ts)' : ''}.`,
});
const appFromFeature = {
  regex: '^(\\.\\./)+app(/|$)',
  message: 'Features do not import app/ (app composes features). Route paths live in lib/paths.ts.',
};
const featureImports = (forTests) => ['error', { patterns: [otherFeatureInternals(forTests), appFromFeature, webNotServer] }];

/** `rowsOf<{ … }>(…)`, `db.query<X & { … }>(…)`: an inline object type anywhere in the row type. */
const noInlineRowType = {
  selector: ['CallExpression[callee.name=/^(rowsOf|query)$/] > TSTypeParameterInstantiation TSTypeLiteral',
    'CallExpression[callee.property.name=/^(rowsOf|query)$/] > TSTypeParameterInstantiation TSTypeLiteral'].join(', '),
  message: 'Name the row type, derived from the schema where it is table columns (Pick<typeof users.$inferSelect, …>), not an inline object type: a renamed column must not compile.',
};
// ---- Server boundaries ----
// A later block's no-restricted-imports replaces an earlier one for the same file, so every server
// block is built by serverImports with all the patterns that file is under.
const serverNotWeb = { regex: '^(\\.\\./)+web(/|$)', message: 'The server never imports the web.' };
const serviceLayer = {
  paths: [{ name: 'fastify', message: 'Services and repositories take a plain Ctx (lib/context.ts) and a Db, never a Fastify object.' }],
  patterns: [
    { regex: '^@fastify/', message: 'Services and repositories never see Fastify objects.' },
    { regex: '^(\\.\\./)+plugins/', message: 'Services and repositories never import plugins/: shared code lives in lib/ or in the module that owns it.' },
  ],
};
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Module files other modules may import besides services: the network module's tree walks, SQL
 * pieces embedded in the income engine's set-based statements (docs/structure.md).
 */
const publicModuleFiles = ['network/tree'];
/** Another module's files, seen from a file `depth` folders under modules/, except its services and publicModuleFiles. */
const otherModule = (depth) => ({
  regex: `^${'\\.\\./'.repeat(depth)}(?!\\.)(?![^/]+/(?:[^/]+/)*[^/]+\\.service(\\.ts)?$)${publicModuleFiles.map((a) => `(?!${escape(a)}(\\.ts)?$)`).join('')}`,
  message: 'A server module reaches another module only through its <m>.service.ts (a money movement: through lib/money/movements.ts).',
});
const noOtherModule = {
  regex: '^\\.\\./(?!\\.)',
  message: 'approvals/ imports no other module: a stored request is replayed through the registry of movements (lib/money/movements.ts).',
};
/** The rule for a server file: never the web; services and repositories (`layer`) never Fastify nor plugins; `more` patterns. */
const serverImports = ({ layer = false, more = [] }) => ['error', {
  ...(layer ? { paths: serviceLayer.paths } : {}),
  patterns: [serverNotWeb, ...(layer ? serviceLayer.patterns : []), ...more],
}];
const serverTests = ['src/server/**/*.test.ts', 'src/server/**/*-test-kit.ts'];
const layerNames = '*.{service,repository}.ts';
const serverBoundaries = [
  ...[1, 2].flatMap((depth) => [
    { files: [`src/server/modules/${'*/'.repeat(depth)}*.ts`], ignores: serverTests, rules: { 'no-restricted-imports': serverImports({ more: [otherModule(depth)] }) } },
    {
      files: [`src/server/modules/${'*/'.repeat(depth)}${layerNames}`], ignores: serverTests,
      rules: { 'no-restricted-imports': serverImports({ layer: true, more: [otherModule(depth)] }) },
    },
  ]),
  { files: ['src/server/modules/approvals/*.ts'], ignores: serverTests, rules: { 'no-restricted-imports': serverImports({ more: [noOtherModule] }) } },
  {
    files: [`src/server/modules/approvals/${layerNames}`], ignores: serverTests,
    rules: { 'no-restricted-imports': serverImports({ layer: true, more: [noOtherModule] }) },
  },
  {
    files: ['src/server/lib/money/*.ts'],
    rules: {
      'no-restricted-imports': serverImports({
        layer: true,
        more: [{ regex: '^(\\.\\./)+modules/', message: 'lib/money is shared by every money module and imports none (the registry\'s list, movements.ts, imports their <m>.movements.ts).' }],
      }),
    },
  },
  {
    files: ['src/server/lib/money/movements.ts'],
    rules: {
      'no-restricted-imports': serverImports({
        layer: true,
        more: [{ regex: '^(\\.\\./)+modules/(?!(?:[^/]+/)+[^/]+\\.movements(\\.ts)?$)', message: 'The registry of movements imports only the modules\' <m>.movements.ts.' }],
      }),
    },
  },
];

const noFetch = {
  selector: "CallExpression[callee.name='fetch'], CallExpression[callee.property.name='fetch'][callee.object.name=/^(window|globalThis|self)$/]",
  message: 'The web calls the API only through the typed client in lib/api-client.ts.',
};

export default defineConfig([
  globalIgnores(['dist/', 'data/', 'drizzle/', 'test-results/', '.tmp/', 'node_modules/', 'bench/results*']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Tuned: `const { page: _page, ...rest } = query` drops fields on purpose; flagging the dropped names is noise.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!zod$|\\./)', message: 'The contract imports nothing but zod and its own files: the server and the web both read it.' }],
      }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': serverImports({}) },
  },
  {
    files: ['src/server/modules/**/*.service.ts', 'src/server/modules/**/*.repository.ts'],
    rules: { 'no-restricted-imports': serverImports({ layer: true }) },
  },
  // A later block's no-restricted-syntax replaces this one for the files both match: add noInlineRowType to it.
  {
    files: ['src/server/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*-test-kit.ts', 'src/server/test/**'],
    rules: { 'no-restricted-syntax': ['error', noInlineRowType] },
  },
  ...serverBoundaries,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/lib/api-client.ts', 'src/web/**/*.test.{ts,tsx}', 'src/web/test-setup.ts'],
    rules: { 'no-restricted-syntax': ['error', noFetch] },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [webNotServer] }],
    },
  },
  {
    files: ['src/web/app/**/*.{ts,tsx}', 'src/web/main.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          {
            regex: `^(\\./|(\\.\\./)+)${features}(?![^/]+-page(\\.tsx)?$|[^/]+\\.api(\\.ts)?$|auth-context(\\.tsx)?$|member-search(\\.tsx)?$)`,
            message: 'app/ may import a feature\'s pages, its <x>.api.ts, auth/auth-context and network/member-search only.',
          },
          webNotServer,
        ],
      }],
    },
  },
  {
    files: ['src/web/features/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': featureImports(false) },
  },
  {
    files: ['src/web/features/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': featureImports(true) },
  },
]);

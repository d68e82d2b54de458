import { spawn } from 'node:child_process';

/**
 * `npm run typecheck`: the server, the panel and the browser tests are three TypeScript projects;
 * they are checked side by side (one core each) and every error of every project is printed.
 */
const projects = ['tsconfig.json', 'src/web/tsconfig.json', 'e2e/tsconfig.json'];
const codes = await Promise.all(
  projects.map(
    (project) =>
      new Promise<number>((resolve) => {
        const tsc = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
        tsc.on('close', (code) => resolve(code ?? 1));
      }),
  ),
);
const failed = projects.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) {
  console.error(`typecheck failed in ${failed.join(', ')}`);
  process.exit(1);
}

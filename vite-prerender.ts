import fs from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';

/** The screens sent prerendered: the path, and the file in the build that holds its page. */
export const PRERENDERED = [{ path: '/signin', file: 'signin.html' }];

/**
 * A prerendered page paints from its HTML and CSS alone: its scripts (hydration) are fetched at low
 * priority, after the stylesheet, instead of competing with it as render-blocking work.
 */
function lowPriorityScripts(html: string): string {
  return html
    .replaceAll('<script type="module" crossorigin src=', '<script type="module" crossorigin fetchpriority="low" src=')
    .replaceAll('<link rel="modulepreload" crossorigin href=', '<link rel="modulepreload" crossorigin fetchpriority="low" href=');
}

/**
 * After the panel's build, renders the sign-in page to HTML (src/web/prerender.tsx, run in Node
 * through Vite) and writes it into a copy of index.html: the server sends that copy for /signin,
 * so the screen paints as soon as the HTML and CSS arrive instead of after the JavaScript
 * (Lighthouse, issue 23); main.tsx hydrates it.
 */
export function prerenderPages(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'backoffice-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle(error?: Error) {
      if (error || config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const index = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const server = await createServer({
        configFile: false,
        root: config.root,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        plugins: config.plugins.filter((p) => p.name.startsWith('vite:react')) as Plugin[],
      });
      try {
        const { render } = (await server.ssrLoadModule('/prerender.tsx')) as { render: (pathname: string) => Promise<string> };
        for (const page of PRERENDERED) {
          const html = await render(page.path);
          if (!index.includes('<div id="root"></div>')) throw new Error('prerender: no empty root in index.html');
          fs.writeFileSync(path.join(outDir, page.file), lowPriorityScripts(index).replace('<div id="root"></div>', `<div id="root">${html}</div>`));
        }
      } finally {
        await server.close();
      }
    },
  };
}

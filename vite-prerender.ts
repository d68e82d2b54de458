import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import { criticalCss } from './vite-critical-css';
import { DEFERRED_STYLESHEET } from './src/web/lib/deferred-stylesheet';

/** The screens sent prerendered: the path, the file in the build that holds its page, and the page's module. */
export const PRERENDERED = [{ path: '/signin', file: 'signin.html', module: 'features/auth/signin-page.tsx' }];

/**
 * The chunks the panel starts with: the entry, the steps it imports dynamically (main.tsx: React
 * DOM, then the app) and all they import statically; with a page's module, that page's (lazy)
 * chunk and its imports too: all a prerendered page needs to hydrate.
 */
export function startChunks(bundle: Rollup.OutputBundle, pageModule?: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry);
  const page = pageModule ? chunks.find((c) => c.facadeModuleId?.endsWith(pageModule)) : undefined;
  if (!entry || (pageModule && !page)) throw new Error(`prerender: entry or ${pageModule} chunk not found`);
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = bundle[name];
    if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
  };
  visit(entry.fileName);
  entry.dynamicImports.forEach(visit);
  if (page) visit(page.fileName);
  return [...seen];
}

/** The id of an empty element after the prerendered root: the page paints once the parser reaches it. */
const PARSED_MARK = 'prerendered';

/**
 * The script that loads a prerendered page's JavaScript once the page has painted (a file: the CSP
 * allows no inline script): until then the page makes no request but this one, so its first paint
 * waits for nothing but the HTML (its CSS inline). Then the entry and every chunk the page
 * hydrates with, fetched together instead of one import after another.
 *
 * "Painted" is the browser's own first-contentful-paint entry, not a frame callback: a
 * requestAnimationFrame runs before its frame is presented, so the chunks' requests began before
 * the paint and Lighthouse's simulation counted all 200 KB of them into the first paint (FCP
 * 1.3 s, LCP 1.9 s simulated against 200 ms observed). A hidden tab paints nothing: it loads at
 * once; a browser without paint timing, or a paint that is never reported, after 2 s at most.
 */
function bootScript(entry: string, preload: string[]): string {
  return `(()=>{let done=false;const load=()=>{if(done)return;done=true;const head=document.head;` +
    `for(const href of ${JSON.stringify(preload)}){const l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=href;head.append(l)}` +
    `const s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entry)};head.append(s)};` +
    `if(document.visibilityState!=='visible')return load();setTimeout(load,2000);` +
    `try{const o=new PerformanceObserver((l)=>{if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(load)}});o.observe({type:'paint',buffered:true})}` +
    `catch{requestAnimationFrame(()=>setTimeout(load))}})();\n`;
}

/**
 * index.html with a modulepreload link for every chunk the panel starts with that it lacks (the
 * chunks of main.tsx's dynamic steps): fetched with the entry, not one step after another.
 */
function withStartPreloads(index: string, chunks: string[]): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(index);
  if (!entry) throw new Error('prerender: index.html lacks its entry script');
  const base = entry[1]!.slice(0, entry[1]!.lastIndexOf('/assets/') + 1);
  const missing = chunks.map((c) => base + c).filter((href) => href !== entry[1] && !index.includes(`href="${href}"`));
  const links = missing.map((href) => `<link rel="modulepreload" crossorigin href="${href}">\n    `).join('');
  return index.replace(/<link rel="stylesheet"/, `${links}<link rel="stylesheet"`);
}

/**
 * index.html made into a prerendered page's shell: the stylesheet's link becomes the page's
 * critical CSS inline and a meta tag naming the stylesheet (src/web/lib/stylesheet.ts loads it
 * when something needs it), the entry's script and modulepreload links give way to the boot
 * script, the page's own head (prerender.tsx `head`: the colour scheme's inline script) joins the
 * head, and the root holds the page's HTML.
 */
function pageHtml(index: string, html: string, pageHead: string, readAsset: (href: string) => string, chunks: string[], writeAsset: (name: string, code: string) => string): string {
  const stylesheet = /<link rel="stylesheet" crossorigin href="([^"]+)">\n?\s*/.exec(index);
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\n?\s*/.exec(index);
  if (!stylesheet || !entry || !index.includes('<div id="root"></div>')) throw new Error('prerender: index.html lacks its stylesheet, entry script or empty root');
  const base = entry[1]!.slice(0, entry[1]!.lastIndexOf('/assets/') + 1);
  const preload = chunks.map((c) => base + c).filter((href) => href !== entry[1]);
  const boot = writeAsset('signin-boot', bootScript(entry[1]!, preload));
  const head = [
    // No paint until the page's HTML has been parsed to its end: a paint in between (Chromium yields
    // while parsing) draws the centred card without its lower half, then moves it (layout shift).
    `<link rel="expect" href="#${PARSED_MARK}" blocking="render" />`,
    pageHead,
    `<meta name="${DEFERRED_STYLESHEET}" content="${stylesheet[1]}" />`,
    `<style id="critical-css">${criticalCss(readAsset(stylesheet[1]!), html)}</style>`,
    `<script defer src="${boot}"></script>`,
  ];
  return index
    .replace(stylesheet[0], '')
    .replace(entry[0], '')
    .replace(/<link rel="modulepreload" crossorigin href="[^"]+">\n?\s*/g, '')
    .replace('</head>', `${head.map((tag) => `  ${tag}\n`).join('')}  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${html}</div><template id="${PARSED_MARK}"></template>`);
}

/**
 * After the panel's build, renders the sign-in page to HTML (src/web/prerender.tsx, run in Node
 * through Vite) and writes it into a copy of index.html: the server sends that copy for /signin,
 * so the screen paints as soon as the HTML arrives (its critical CSS inline) instead of after the
 * stylesheet and the JavaScript (Lighthouse, issue 23); main.tsx hydrates it.
 */
export function prerenderPages(): Plugin {
  let config: ResolvedConfig;
  const chunks = new Map<string, string[]>();
  return {
    name: 'backoffice-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      if (config.build.ssr) return;
      chunks.set('', startChunks(bundle));
      for (const page of PRERENDERED) chunks.set(page.path, startChunks(bundle, page.module));
    },
    async closeBundle(error?: Error) {
      if (error || config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const index = withStartPreloads(fs.readFileSync(path.join(outDir, 'index.html'), 'utf8'), chunks.get('') ?? []);
      fs.writeFileSync(path.join(outDir, 'index.html'), index);
      const readAsset = (href: string) => fs.readFileSync(path.join(outDir, href.replace(/^\//, '')), 'utf8');
      const writeAsset = (name: string, code: string) => {
        const file = `assets/${name}-${crypto.createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
        fs.writeFileSync(path.join(outDir, file), code);
        return `/${file}`;
      };
      const server = await createServer({
        configFile: false,
        root: config.root,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        plugins: config.plugins.filter((p) => p.name.startsWith('vite:react')) as Plugin[],
      });
      try {
        const { render, head } = (await server.ssrLoadModule('/prerender.tsx')) as { render: (pathname: string) => Promise<string>; head: () => string };
        for (const page of PRERENDERED) {
          const html = await render(page.path);
          fs.writeFileSync(path.join(outDir, page.file), pageHtml(index, html, head(), readAsset, chunks.get(page.path) ?? [], writeAsset));
        }
      } finally {
        await server.close();
      }
    },
  };
}

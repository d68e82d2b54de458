import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { allowingInlineScripts, securityHeaders } from './security-headers.ts';

/** The text of each inline script (a <script> without src) in a page. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}

/**
 * The built panel on every path outside /api; unknown /api paths answer 404 JSON. Client-side
 * routes (/users, …) get index.html; /signin gets its prerendered page (vite-prerender.ts).
 */
export async function registerWeb(app: FastifyInstance): Promise<void> {
  const webDir = app.config.webDir;
  const index = path.join(webDir, 'index.html');
  const hasPanel = fs.existsSync(index);
  // A prerendered page and the content security policy it is sent with: the panel's, with the
  // page's own inline scripts allowed by their hashes.
  const csp = securityHeaders()['content-security-policy']!;
  const prerendered = new Map<string, { file: string; csp: string }>();
  for (const [url, file] of [['/signin', 'signin.html']] as const) {
    const at = path.join(webDir, file);
    if (fs.existsSync(at)) prerendered.set(url, { file, csp: allowingInlineScripts(csp, inlineScripts(fs.readFileSync(at, 'utf8'))) });
  }
  if (hasPanel) {
    // The build's brotli and gzip copies (vite-compress.ts) to browsers that take them; the hashed
    // files under /assets never change, the pages are checked every time.
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        const hashed = file.startsWith(path.join(webDir, 'assets') + path.sep);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (url === '/api' || url.startsWith('/api/') || (request.method !== 'GET' && request.method !== 'HEAD') || !hasPanel) {
      return reply.code(404).send({ success: false, message: `Route ${request.method} ${url} not found` });
    }
    if (path.extname(url)) {
      return reply.code(404).send({ success: false, message: `File ${url} not found` });
    }
    const page = prerendered.get(url.replace(/\/+$/, ''));
    if (page) reply.header('content-security-policy', page.csp);
    return reply.type('text/html').sendFile(page?.file ?? 'index.html');
  });
}

import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * The built panel on every path outside /api; unknown /api paths answer 404 JSON. Client-side
 * routes (/users, /signin, …) get index.html.
 */
export async function registerWeb(app: FastifyInstance): Promise<void> {
  const webDir = app.config.webDir;
  const index = path.join(webDir, 'index.html');
  const hasPanel = fs.existsSync(index);
  if (hasPanel) {
    await app.register(fastifyStatic, { root: webDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (url === '/api' || url.startsWith('/api/') || request.method !== 'GET' || !hasPanel) {
      return reply.code(404).send({ success: false, message: `Route ${request.method} ${url} not found` });
    }
    if (path.extname(url)) {
      return reply.code(404).send({ success: false, message: `File ${url} not found` });
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}

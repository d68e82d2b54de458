import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/**
 * Beside every text file of the build, its brotli (.br) and gzip (.gz) forms, made once at build
 * time at the highest levels: the server sends them to browsers that accept them
 * (@fastify/static `preCompressed`, src/server/plugins/web.ts), so the panel's 1.5 MB of
 * JavaScript and CSS travel as about a quarter of that without compressing per request.
 * Runs after the other plugins' closeBundle (the prerendered pages are compressed too).
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'backoffice-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler(error?: Error) {
        if (error || config.build.ssr) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) => COMPRESSIBLE.test(f));
        for (const file of files) {
          const full = path.join(outDir, file);
          const data = fs.readFileSync(full);
          if (data.length < 1024) continue;
          const br = brotliCompressSync(data, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
          });
          const gz = gzipSync(data, { level: 9 });
          if (br.length < data.length) fs.writeFileSync(`${full}.br`, br);
          if (gz.length < data.length) fs.writeFileSync(`${full}.gz`, gz);
        }
      },
    },
  };
}

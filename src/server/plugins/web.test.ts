import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.ts';

// The built panel as the server sends it (plugins/web.ts): pages checked every time, hashed assets
// kept for a year, the prerendered sign-in page for /signin, brotli and gzip copies to browsers
// that take them (issue 23).
const COLOR_SCRIPT = 'document.documentElement.setAttribute("data-mantine-color-scheme", "light");\n';
let t: TestContext;
let webDir: string;

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<html><body><div id="root"></div>app shell</body></html>');
  const signin = `<html><head><script data-mantine-script="true">${COLOR_SCRIPT}</script><script defer src="/assets/boot.js"></script></head>` +
    '<body><div id="root"><form>prerendered sign-in</form></div></body></html>';
  fs.writeFileSync(path.join(webDir, 'signin.html'), signin);
  fs.writeFileSync(path.join(webDir, 'signin.html.br'), zlib.brotliCompressSync(signin));
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({ config: { webDir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers });

describe('the panel', () => {
  it('sends the app shell for a client route, checked every time, and answers HEAD like GET', async () => {
    const page = await get('/users');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('app shell');
    expect(page.headers['cache-control']).toBe('no-cache');
    const head = await get('/users', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('sends the prerendered page for /signin, brotli to a browser that takes it', async () => {
    const plain = await get('/signin');
    expect(plain.body).toContain('prerendered sign-in');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/signin', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('prerendered sign-in');
    expect((await get('/signin/')).body).toContain('prerendered sign-in');
  });

  it('lets the prerendered page run its own inline script, by its hash, and no other page any', async () => {
    const hash = `'sha256-${crypto.createHash('sha256').update(COLOR_SCRIPT).digest('base64')}'`;
    const scriptSrc = (csp: unknown) => /(?:^|;)script-src ([^;]*)/.exec(String(csp))?.[1]?.split(' ');
    expect(scriptSrc((await get('/signin')).headers['content-security-policy'])).toEqual(["'self'", hash]);
    expect(scriptSrc((await get('/signin', { 'accept-encoding': 'br' })).headers['content-security-policy'])).toEqual(["'self'", hash]);
    expect(scriptSrc((await get('/users')).headers['content-security-policy'])).toEqual(["'self'"]);
    expect(scriptSrc((await get('/api/health')).headers['content-security-policy'])).toEqual(["'self'"]);
  });

  it('keeps hashed assets a year, and answers a missing file or API route with JSON 404', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/missing.js')).json()).toEqual({ success: false, message: 'File /assets/missing.js not found' });
    expect((await get('/api/no-such-route')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/users' })).statusCode).toBe(404);
  });
});

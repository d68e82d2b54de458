import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answersOk, until } from './wait.ts';

export const nginxPath = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

/**
 * Runs nginx in the foreground with deploy/nginx.conf (the README's configuration), its two
 * upstream ports and its listen port rewritten to the test's.
 */
export async function startNginx(listenPort: number, upstreamPorts: [number, number]) {
  if (!nginxPath) throw new Error('nginx is not installed (apt-get install nginx)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-nginx-'));
  const site = fs
    .readFileSync(path.resolve(import.meta.dirname, '../../deploy/nginx.conf'), 'utf8')
    .replace('127.0.0.1:8009', `127.0.0.1:${upstreamPorts[0]}`)
    .replace('127.0.0.1:8010', `127.0.0.1:${upstreamPorts[1]}`)
    .replace('listen 8080;', `listen 127.0.0.1:${listenPort};`);
  fs.writeFileSync(path.join(dir, 'backoffice.conf'), site);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/backoffice.conf;
}
`,
  );
  const child: ChildProcess = spawn(nginxPath, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'pipe' });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${listenPort}`;
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${out}`);
    return answersOk(`${url}/api/health`);
  }, () => `nginx did not answer: ${out}`, 15_000);
  return {
    url,
    /** The last lines of nginx's error log (why a request through it failed). */
    errorLog: (lines = 20) => {
      try {
        return fs.readFileSync(path.join(dir, 'error.log'), 'utf8').trim().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.on('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

import autocannon from 'autocannon';
import { startServer, E2E_ADMIN } from './e2e/support/server.ts';
const server = await startServer({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/bench1m', nodeArgs: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'], env: {} });
const login = await fetch(`${server.url}/api/Adminlogin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: E2E_ADMIN.email, password: E2E_ADMIN.password }) });
const token = (await login.json()).data.token;
const path = process.argv[2];
const r = await autocannon({ url: server.url + path, connections: 16, duration: Number(process.argv[3] ?? 20), headers: { authorization: `Bearer ${token}` } });
console.log('req/s', r.requests.average, 'non2xx', r.non2xx, 'p50', r.latency.p50);
await server.kill('SIGTERM'); await server.cleanUp();

import fc from 'fast-check';
import { fieldValue, hostileString, wrongType } from './hostile.ts';
import type { JsonSchema, Param, RouteShape } from './shapes.ts';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What kind of hostility this is, for the report. */
  kind: string;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';

/** Above the 1 MB JSON limit and the 1 MB + 64 KB upload limit: each must answer 413. */
const OVERSIZED = `{"blob":"${'A'.repeat(1024 * 1024 + 128 * 1024)}"}`;

const RAW_PATH_SEGMENTS = ['..', '.', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%2e%2e%5c%2e%2e%5cwin.ini', '%00', '%ZZ', '1%20OR%201=1', '1;', '1.5', '1e3', '-1', '0', '99999999999999999999', '0x1f', '%F0%9F%98%80', '%C0%AE%C0%AE', '%ED%A0%80'];

/** Percent-encodes anything, lone surrogates included (as the replacement character's bytes). */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

const segment = (p: Param): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: fieldValue(p.schema, p.name).map((v) => enc(typeof v === 'string' ? v : JSON.stringify(v) ?? 'undefined')) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
  ).filter((s) => s.length > 0);

function queryString(params: Param[]): fc.Arbitrary<string> {
  const pair = (name: string, value: fc.Arbitrary<unknown>) =>
    value.map((v) => `${enc(name)}=${enc(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`);
  const declared = params.map((p) => fc.option(pair(p.name, fieldValue(p.schema, p.name)), { nil: undefined, freq: 2 }));
  const extra = fc.array(
    fc.oneof(
      pair('page', wrongType),
      pair('limit', fc.constantFrom(0, -1, 501, 1e9, 'all')),
      fc.constantFrom('%ZZ=1', 'a[b][c]=1', '__proto__[admin]=1', 'page=1&page=2', '=', '&&&', 'limit'),
      fc.tuple(hostileString, hostileString).map(([k, v]) => `${enc(k || 'k')}=${enc(v)}`),
    ),
    { maxLength: 3 },
  );
  return fc.tuple(fc.tuple(...declared), extra).map(([d, e]) => [...d.filter((x): x is string => !!x), ...e].join('&'));
}

/** A body for the schema: fields valid, hostile or of the wrong type; required ones sometimes missing; extras sometimes. */
function bodyObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fields = props.map(([name, s]) =>
    fc.option(fieldValue(s, name).map((v) => [name, v] as const), { nil: undefined, freq: required.has(name) ? 12 : 2 }),
  );
  const extras = fc.array(
    fc.oneof(
      fc.tuple(fc.constantFrom('role', 'roleId', 'isAdmin', 'balance', 'balancePaise', 'userId', 'password', 'status', 'id', 'createdAt'), wrongType),
      fc.tuple(hostileString, wrongType),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...fields), extras).map(([f, e]) => {
    const body: Record<string, unknown> = {};
    for (const [k, v] of e) if (k !== '__proto__') body[k] = v;
    for (const entry of f) if (entry) body[entry[0]] = entry[1];
    return body;
  });
}

const deepJson = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

const RAW_BODIES: { contentType: string; payload: string }[] = [
  { contentType: JSON_TYPE, payload: '{' },
  { contentType: JSON_TYPE, payload: '{"a":}' },
  { contentType: JSON_TYPE, payload: '[1,2' },
  { contentType: JSON_TYPE, payload: 'nul' },
  { contentType: JSON_TYPE, payload: "{'single':'quotes'}" },
  { contentType: JSON_TYPE, payload: '{"amount": NaN}' },
  { contentType: JSON_TYPE, payload: '{"amount": 1e999}' },
  { contentType: JSON_TYPE, payload: '{"__proto__": {"isAdmin": true}}' },
  { contentType: JSON_TYPE, payload: '{"constructor": {"prototype": {"isAdmin": true}}}' },
  { contentType: JSON_TYPE, payload: '"just a string"' },
  { contentType: JSON_TYPE, payload: '12345' },
  { contentType: JSON_TYPE, payload: 'null' },
  { contentType: JSON_TYPE, payload: '[]' },
  { contentType: JSON_TYPE, payload: '' },
  { contentType: JSON_TYPE, payload: '\uFEFF{}' },
  { contentType: JSON_TYPE, payload: deepJson(5_000) },
  { contentType: JSON_TYPE, payload: `${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}` },
  { contentType: 'application/json; charset=utf-16', payload: '{}' },
  { contentType: 'text/plain', payload: 'amount=100' },
  { contentType: 'application/xml', payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'userId=1&amount=100' },
  { contentType: 'multipart/form-data', payload: '--x\r\n' },
  { contentType: 'multipart/form-data; boundary=zz', payload: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\n' },
  { contentType: 'application/octet-stream', payload: '\u0000\u0001\u0002' },
  { contentType: '*/*', payload: '{}' },
];

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const FILE_NAMES = ['icon.png', '../../../../tmp/evil.png', '..\\..\\evil.png', '/etc/passwd', 'a\u0000.png', 'x.svg', '.htaccess', '%2e%2e%2fx.png', 'CON', '', '😀.png', 'a'.repeat(300)];
const FILE_BODIES = [PNG, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), Buffer.from('GIF89a'), Buffer.alloc(0), Buffer.from([0xff, 0xd8, 0xff, 0xe0])];

/** A multipart body as a browser builds it, with the schema's fields as text parts and a hostile file part. */
function multipartBody(schema: JsonSchema): fc.Arbitrary<{ contentType: string; payload: Buffer }> {
  return fc
    .tuple(
      bodyObject(schema),
      fc.option(fc.tuple(fc.constantFrom('serviceIcon', 'file', '../x'), fc.constantFrom(...FILE_NAMES), fc.constantFrom(...FILE_BODIES), fc.constantFrom('image/png', 'image/svg+xml', 'text/html')), { nil: undefined, freq: 4 }),
    )
    .map(([fields, file]) => {
      const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
      const chunks: Buffer[] = [];
      for (const [name, value] of Object.entries(fields)) {
        const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
        chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${text}\r\n`));
      }
      if (file) {
        const [field, filename, content, type] = file;
        chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`), content, Buffer.from('\r\n'));
      }
      chunks.push(Buffer.from(`--${boundary}--\r\n`));
      return { contentType: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(chunks) };
    });
}

const idempotencyKey = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constantFrom('short', 'x'.repeat(300), 'with spaces in it', '', '../../../etc', "'; drop table idempotency_keys; --") },
);

/** Every kind of hostile request for one route. */
export function requestFor(route: RouteShape, token: string): fc.Arbitrary<FuzzRequest> {
  const path = fc.tuple(...route.pathParams.map(segment)).map((segments) => {
    let i = 0;
    return route.url.replace(/:[A-Za-z_]+/g, () => segments[i++]);
  });
  const auth = { authorization: `Bearer ${token}` };
  const keyHeader = route.method === 'POST'
    ? fc.option(idempotencyKey.map((key) => ({ 'idempotency-key': key })), { nil: undefined, freq: 2 })
    : fc.constant(undefined);
  const base = fc.tuple(path, queryString(route.query), keyHeader).map(([p, q, k]) => ({
    url: q ? `${p}?${q}` : p,
    headers: { ...auth, ...k } as Record<string, string>,
  }));
  if (!WRITE.has(route.method) || !route.body) {
    return base.map((b) => ({ method: route.method, ...b, kind: 'params' }));
  }
  const schema = route.body;
  const shaped = fc.tuple(base, bodyObject(schema)).map(([b, body]) => ({
    method: route.method, url: b.url, headers: { ...b.headers, 'content-type': JSON_TYPE }, payload: JSON.stringify(body), kind: 'json',
  }));
  const raw = fc.tuple(base, fc.constantFrom(...RAW_BODIES)).map(([b, r]) => ({
    method: route.method, url: b.url, headers: { ...b.headers, 'content-type': r.contentType }, payload: r.payload, kind: 'raw',
  }));
  const multipart = fc.tuple(base, multipartBody(schema)).map(([b, m]) => ({
    method: route.method, url: b.url, headers: { ...b.headers, 'content-type': m.contentType }, payload: m.payload, kind: 'multipart',
  }));
  const oversized = base.map((b) => ({
    method: route.method, url: b.url, headers: { ...b.headers, 'content-type': JSON_TYPE }, payload: OVERSIZED, kind: 'oversized',
  }));
  return fc.oneof(
    { weight: 12, arbitrary: shaped },
    { weight: 3, arbitrary: raw },
    { weight: 2, arbitrary: multipart },
    { weight: 1, arbitrary: base.map((b) => ({ method: route.method, ...b, kind: 'no-body' })) },
    { weight: 1, arbitrary: oversized },
  );
}

/** Paths nobody registered: traversal and junk under /api, and out of the icon directory. */
export const strayRequest: fc.Arbitrary<FuzzRequest> = fc
  .oneof(
    fc.constantFrom(
      '/api/../../etc/passwd', '/api/%2e%2e/%2e%2e/etc/passwd', '/api/users/..%2f..%2fadmin', '/api/nope', '/api//users',
      '/uploads/service-icons/..%2f..%2f..%2fetc%2fpasswd', '/uploads/service-icons/../../package.json',
      '/uploads/service-icons/%2e%2e%2fdata.db', '/uploads/service-icons/0000000000000000000000000000000.png',
      '/uploads/service-icons/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png', '/api/users/getAllusers%00', '/api/%ZZ',
    ),
    hostileString.map((s) => `/api/${enc(s)}`),
    hostileString.map((s) => `/uploads/service-icons/${enc(s)}`),
  )
  .chain((url) => fc.constantFrom('GET', 'POST', 'DELETE', 'PUT').map((method) => ({ method, url, headers: {}, kind: 'stray' })));

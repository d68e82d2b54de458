import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let headers: Record<string, string>;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'services-test-'));
  t = await createTestApp({ config: { dataDir } });
  headers = bearer(await t.login());
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(64, 2)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(64, 3)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

type Part = string | { filename: string; type: string; data: Buffer };

/** A multipart/form-data body, as a browser's FormData sends it. */
function multipart(fields: Record<string, Part>) {
  const boundary = '----backoffice-test-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`));
      chunks.push(value.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const create = (fields: Record<string, Part>) =>
  t.app.inject({ method: 'POST', url: '/api/services/createService', ...multipart(fields) });
const update = (id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/services/updateService/${id}`, headers, payload });
const png = (data = PNG) => ({ filename: 'icon.png', type: 'image/png', data });

describe('services API', () => {
  it('lists the services with the spec fields and derived category', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/services/getAllServices', headers });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data[0]).toEqual({
      serviceId: expect.any(Number), serviceType: 'mobile_recharge', serviceName: 'Mobile Recharge', serviceIcon: null,
      status: true, category: 'Recharge', description: 'Recharge', createdAt: expect.any(String),
    });
    expect(data.find((s: { serviceName: string }) => s.serviceName === 'Electricity Bill').category).toBe('BBPS');
  });

  it('creates a service from multipart with an icon that the server then serves publicly', async () => {
    const res = await create({ serviceType: 'fastag_recharge', serviceName: 'FASTag Recharge', category: 'Recharge', description: 'Recharge', status: 'true', serviceIcon: png() });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(res.json()).toMatchObject({ success: true, message: 'Service created successfully' });
    expect(data).toMatchObject({ serviceName: 'FASTag Recharge', serviceType: 'fastag_recharge', category: 'Recharge', status: true });
    expect(data.serviceIcon).toMatch(/^\/uploads\/service-icons\/[a-f0-9]{32}\.png$/);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'service-icons'))).toHaveLength(1);

    const icon = await t.app.inject({ method: 'GET', url: data.serviceIcon });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.rawPayload.equals(PNG)).toBe(true);
    const [log] = await t.database.query<{ action: string }>(`select action from audit_log where entity = 'service' and entity_id = $1`, [String(data.serviceId)]);
    expect(log.action).toBe('create');
  });

  it('derives the category: "bill" or "payment" in the description means BBPS; a blank type comes from the name', async () => {
    const res = await create({ serviceName: 'Loan EMI', category: 'Recharge', description: 'Loan EMI payment', status: 'false', serviceIcon: { filename: 'a.jpg', type: 'image/jpeg', data: JPEG } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ category: 'BBPS', serviceType: 'loan_emi', status: false, description: 'Loan EMI payment' });
    expect(res.json().data.serviceIcon).toMatch(/\.jpg$/);
  });

  it('accepts WebP and an existingIcon path of an uploaded icon', async () => {
    const webp = await create({ serviceName: 'Cable TV', category: 'BBPS', serviceIcon: { filename: 'c.webp', type: 'image/webp', data: WEBP } });
    expect(webp.statusCode).toBe(201);
    expect(webp.json().data).toMatchObject({ category: 'BBPS', description: 'BBPS' });
    const reuse = await create({ serviceName: 'Cable TV 2', category: 'BBPS', existingIcon: webp.json().data.serviceIcon });
    expect(reuse.statusCode).toBe(201);
    expect(reuse.json().data.serviceIcon).toBe(webp.json().data.serviceIcon);
    const made = await create({ serviceName: 'X', category: 'BBPS', existingIcon: '/uploads/service-icons/0123456789abcdef0123456789abcdef.png' });
    expect(made.statusCode).toBe(400);
    const outside = await create({ serviceName: 'X', category: 'BBPS', existingIcon: 'https://evil.example/x.png' });
    expect(outside.statusCode).toBe(400);
  });

  it('refuses a non-image renamed .png, SVG, an oversize file, a missing icon and a missing name, and writes nothing', async () => {
    const before = fs.readdirSync(path.join(dataDir, 'uploads', 'service-icons')).length;
    const renamed = await create({ serviceName: 'Fake', category: 'Recharge', serviceIcon: png(Buffer.from('MZ this is an executable, not a picture')) });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toEqual({ success: false, message: 'The icon must be a PNG, JPEG or WebP image of at most 1 MB' });
    const svg = await create({ serviceName: 'Svg', category: 'Recharge', serviceIcon: { filename: 'i.svg', type: 'image/svg+xml', data: SVG } });
    expect(svg.statusCode).toBe(400);
    const big = await create({ serviceName: 'Big', category: 'Recharge', serviceIcon: png(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])) });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The icon must be a PNG, JPEG or WebP image of at most 1 MB');
    const noIcon = await create({ serviceName: 'Nothing', category: 'Recharge' });
    expect(noIcon.statusCode).toBe(400);
    expect(noIcon.json().message).toBe('An icon image is required for a new service');
    const noName = await create({ serviceName: ' ', category: 'Recharge', serviceIcon: png() });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('Please fill in the service name');
    const badCategory = await create({ serviceName: 'Y', category: 'Lottery', serviceIcon: png() });
    expect(badCategory.statusCode).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: '/api/services/createService', headers, payload: { serviceName: 'J' } });
    expect(json.statusCode).toBe(415);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'service-icons'))).toHaveLength(before);
  });

  it('updates by JSON and answers updatedService; a new icon by multipart; null removes the icon; 404 for unknown ids', async () => {
    const created = (await create({ serviceName: 'Metro Card', category: 'Recharge', serviceIcon: png() })).json().data;
    const res = await update(created.serviceId, { serviceType: 'metro_card', serviceName: 'Metro Card Recharge', category: 'BBPS', description: 'BBPS', status: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true, message: 'Service updated successfully',
      updatedService: { serviceId: created.serviceId, serviceName: 'Metro Card Recharge', category: 'BBPS', status: false, serviceIcon: created.serviceIcon },
    });
    const withIcon = await t.app.inject({
      method: 'PUT', url: `/api/services/updateService/${created.serviceId}`,
      ...multipart({ serviceName: 'Metro Card Recharge', category: 'BBPS', status: 'true', serviceIcon: { filename: 'n.jpg', type: 'image/jpeg', data: JPEG } }),
    });
    expect(withIcon.statusCode, withIcon.body).toBe(200);
    const newIcon = withIcon.json().updatedService.serviceIcon;
    expect(newIcon).toMatch(/\.jpg$/);
    expect((await t.app.inject({ method: 'GET', url: newIcon })).headers['content-type']).toBe('image/jpeg');
    const removed = await update(created.serviceId, { serviceName: 'Metro Card Recharge', category: 'BBPS', status: true, serviceIcon: null });
    expect(removed.json().updatedService.serviceIcon).toBeNull();
    expect((await update(999999, { serviceName: 'X', status: true })).statusCode).toBe(404);
    expect((await update(created.serviceId, { serviceName: '', status: true })).statusCode).toBe(400);
    const badIcon = await t.app.inject({
      method: 'PUT', url: `/api/services/updateService/${created.serviceId}`,
      ...multipart({ serviceName: 'Metro', serviceIcon: png(SVG) }),
    });
    expect(badIcon.statusCode).toBe(400);
  });

  it('refuses a second service of the same name and type (case and spacing ignored) on create and update, on the name field', async () => {
    const message = 'A service named Mobile Recharge of type mobile_recharge already exists';
    const refusal = { success: false, message, errors: [{ path: 'body.serviceName', field: 'serviceName', message }] };
    // The seeded 'Mobile Recharge' (mobile_recharge): a blank type comes from the name.
    const again = await create({ serviceName: '  mobile   RECHARGE ', category: 'Recharge', serviceIcon: png() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(refusal);
    const typed = await create({ serviceType: 'Mobile_Recharge', serviceName: 'Mobile Recharge', category: 'Recharge', serviceIcon: png() });
    expect(typed.statusCode).toBe(409);
    // Another type of the same name in the other category is another service.
    const other = await create({ serviceType: 'postpaid', serviceName: 'Mobile Recharge', category: 'BBPS', serviceIcon: png() });
    expect(other.statusCode).toBe(201);
    const id = other.json().data.serviceId;
    const renamed = await update(id, { serviceType: 'mobile_recharge', serviceName: 'Mobile Recharge', status: true });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual(refusal);
    // Saving a service under its own name and type is no duplicate.
    expect((await update(id, { serviceType: 'postpaid', serviceName: 'mobile recharge', status: false })).statusCode).toBe(200);
    const [{ n }] = await t.database.query<{ n: number }>(`select count(*)::int as n from services where lower(service_name) = 'mobile recharge'`);
    expect(Number(n)).toBe(2);
  });

  it('issue 24 item 8: a name is unique within its category, on create and on edit, case and spacing ignored', async () => {
    const message = 'A BBPS service named Electricity Bill already exists: choose another name';
    const refusal = { success: false, message, errors: [{ path: 'body.serviceName', field: 'serviceName', message }] };
    const list = async () => (await t.app.inject({ method: 'GET', url: '/api/services/getAllServices', headers })).json().data as
      { serviceId: number; serviceName: string; category: string }[];
    const water = (await list()).find((x) => x.serviceName === 'Water Bill')!;
    // The renaming of the issue: 'Water Bill' (water_bill) to 'Electricity Bill' (electricity_bill), both BBPS.
    const renamed = await update(water.serviceId, { serviceName: 'ELECTRICITY  bill', status: true });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual(refusal);
    expect((await list()).find((x) => x.serviceId === water.serviceId)!.serviceName).toBe('Water Bill');
    // Create, under another type, is refused too.
    const made = await create({ serviceType: 'power', serviceName: 'electricity bill', category: 'BBPS', serviceIcon: png() });
    expect(made.statusCode).toBe(409);
    expect(made.json().message).toBe('A BBPS service named Electricity Bill already exists: choose another name');
    // The same name in the other category is allowed; one name per category, whatever the writes.
    expect((await create({ serviceType: 'power_card', serviceName: 'Electricity Bill', category: 'Recharge', description: 'Recharge', serviceIcon: png() })).statusCode).toBe(201);
    const names = (await list()).filter((x) => x.serviceName.toLowerCase() === 'electricity bill').map((x) => x.category).sort();
    expect(names).toEqual(['BBPS', 'Recharge']);
    // A direct write past the check meets the index.
    await expect(t.database.query(`update services set service_name = 'Electricity Bill' where service_id = $1`, [water.serviceId])).rejects.toThrow();
  });

  it('serves icons only by the server\u2019s own file names: no path traversal', async () => {
    for (const url of [
      '/uploads/service-icons/..%2F..%2Fpg%2FPG_VERSION', '/uploads/service-icons/../../server.lock',
      '/uploads/service-icons/abc.png', '/uploads/service-icons/0123456789abcdef0123456789abcdef.png',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('needs services_view to list and services_manage to change', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/services/getAllServices' })).statusCode).toBe(401);
    const plain = await plainAccount(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/services/getAllServices', headers: plain })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/services/updateService/1', headers: plain, payload: { serviceName: 'X' } })).statusCode).toBe(403);
  });
});

import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath } from './support/browser.ts';
import { serverAndBrowser } from './support/journey.ts';
import { signIn } from './support/screens.ts';

/** A real size × size PNG of one colour, so the browser can decode and show it. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => [r, g, b][i % 3])]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(`/api${p}`, { headers: { authorization: `Bearer ${localStorage.getItem('authToken')}` } });
    return res.json();
  }, path) as Promise<T>;
}

describe.skipIf(!chromiumPath)('access control and catalogue journey in Chromium', () => {
  const journey = serverAndBrowser();


  it('creates a permission and a role, links them, toggles, deletes one permission by typed id; edits a service icon', async () => {
    const page = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(page, journey.server.url);

    // Permissions: the name is formatted as spec §5 says.
    await page.getByRole('link', { name: 'Permissions', exact: true }).click();
    await page.getByRole('heading', { name: 'Permissions', exact: true }).waitFor();
    await page.getByText('users_view', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add Permission' }).click();
    const permDialog = page.getByRole('dialog', { name: 'Add Permission' });
    await permDialog.getByLabel('Module').click();
    await page.getByRole('option', { name: 'Reports' }).click();
    await permDialog.getByLabel('Permission Name').fill('E2E Export Data');
    await permDialog.getByLabel('Description').fill('Export data in the e2e journey');
    await permDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Permission created successfully').waitFor();
    await page.getByText('e2e_export_data', { exact: true }).waitFor();

    // Roles.
    await page.getByRole('link', { name: 'Roles', exact: true }).click();
    await page.getByRole('heading', { name: 'User Roles' }).waitFor();
    await page.getByRole('button', { name: 'Add Role' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Add Role' });
    await roleDialog.getByLabel('Role Name').fill('E2E Operators');
    await roleDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Role created successfully').waitFor();
    await page.getByRole('cell', { name: 'E2E Operators', exact: true }).waitFor();

    const roles = await api<{ data: { roleId: number; name: string }[] }>(page, '/GetAllRoles');
    const roleId = roles.data.find((r) => r.name === 'E2E Operators')!.roleId;
    const perms = await api<{ data: { permissionId: number; name: string }[] }>(page, '/permissions/getPermissions');
    const exportId = perms.data.find((p) => p.name === 'e2e_export_data')!.permissionId;
    const viewId = perms.data.find((p) => p.name === 'services_view')!.permissionId;

    // Role permissions: link them, toggle, delete one by typed id.
    await page.getByRole('link', { name: 'Role Permissions' }).click();
    await page.getByRole('heading', { name: 'Role Permissions' }).waitFor();
    await page.getByRole('button', { name: 'Add Role Permission' }).click();
    const rpDialog = page.getByRole('dialog', { name: 'Add Role Permission' });
    await rpDialog.getByLabel('Role ID').fill(String(roleId));
    // Role Name is the role's own name, shown for the typed Role ID (issue 15 item 8).
    await expect.poll(() => rpDialog.getByLabel('Role Name').inputValue()).toBe('E2E Operators');
    await rpDialog.getByLabel('Permission Name').fill('Operators group');
    // Issue 24: permissions are picked by name (the ids still go on the wire).
    const picker = rpDialog.getByLabel(/^Permissions/);
    await picker.click();
    await picker.fill('services_view');
    await page.getByRole('option', { name: /services_view/ }).click();
    await picker.fill('e2e_export');
    await page.getByRole('option', { name: /e2e_export_data/ }).click();
    await rpDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Role permission created successfully').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Operators group' });
    await row.getByText([viewId, exportId].sort((a, b) => a - b).join(', ')).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Toggle E2E Operators' }).click();
    await row.getByText('Inactive', { exact: true }).waitFor();
    await page.getByText('Role permission updated successfully').waitFor();

    await row.getByRole('button', { name: 'Delete Permission of E2E Operators' }).click();
    const prompt = page.getByRole('dialog', { name: 'Delete Permission' });
    await prompt.getByLabel('Permission ID').fill('999999');
    await prompt.getByRole('button', { name: 'Continue' }).click();
    await prompt.getByText('Invalid permission ID. Please try again.').waitFor();
    await prompt.getByLabel('Permission ID').fill(String(exportId));
    await prompt.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(`Are you sure you want to delete permission ${exportId} from role ${roleId}?`).waitFor();
    await page.getByRole('dialog', { name: 'Delete Permission' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Permission removed from role successfully').waitFor();
    await row.getByText(String(viewId), { exact: true }).waitFor();
    await row.getByText('services_view', { exact: true }).waitFor(); // the name beside the id
    const after = await api<{ data: { roleId: number; permissionIds: number[]; status: boolean }[] }>(page, '/role-permissions/getAllRolePermissions');
    expect(after.data.find((r) => r.roleId === roleId)).toMatchObject({ permissionIds: [viewId], status: false });

    // Services: edit one with a new icon and see it.
    await page.getByRole('link', { name: 'Services', exact: true }).click();
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
    const service = page.getByRole('row').filter({ hasText: 'Mobile Recharge' }).first();
    await service.getByText('No icon').waitFor();
    await service.getByRole('button', { name: 'Edit Mobile Recharge' }).click();
    const serviceDialog = page.getByRole('dialog', { name: 'Edit Service' });
    await serviceDialog.locator('input[type="file"]').setInputFiles({ name: 'mobile.png', mimeType: 'image/png', buffer: solidPng(48, [79, 70, 229]) });
    await serviceDialog.getByAltText('Icon preview').waitFor();
    await serviceDialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Service updated successfully').waitFor();
    const icon = service.getByAltText('Mobile Recharge icon');
    await icon.waitFor();
    expect(await icon.getAttribute('src')).toMatch(/^\/uploads\/service-icons\/[a-f0-9]{32}\.png$/);
    await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
  });

  it('sorts the services by name both ways and keeps the order on reload; refuses a duplicate service on its field', async () => {
    const page = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(page, journey.server.url);
    await page.getByRole('link', { name: 'Services', exact: true }).click();
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Electricity Bill', exact: true }).waitFor();
    const names = () => page.locator('table tbody tr td:nth-child(2)').allTextContents();
    const header = page.getByRole('columnheader', { name: 'Service Name' });
    const sorted = (await names()).sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));

    await header.getByRole('button').click();
    await expect.poll(names).toEqual(sorted);
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await header.getByRole('button').click();
    await expect.poll(names).toEqual([...sorted].reverse());
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-serviceName');
    await page.reload();
    await page.getByRole('cell', { name: 'Electricity Bill', exact: true }).waitFor();
    expect(await names()).toEqual([...sorted].reverse());
    expect(await header.getAttribute('aria-sort')).toBe('descending');

    // A second Mobile Recharge (its type comes from the name): refused on the name, the dialog keeps the input.
    await page.getByRole('button', { name: 'Add Service' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Service' });
    const name = dialog.getByLabel('Service Name');
    await name.fill('mobile  recharge');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'dup.png', mimeType: 'image/png', buffer: solidPng(16, [200, 30, 30]) });
    await dialog.getByRole('button', { name: 'Create' }).click();
    const message = 'A service named Mobile Recharge of type mobile_recharge already exists';
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await name.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe(message);
    expect(await name.inputValue()).toBe('mobile  recharge');
    expect(await dialog.isVisible()).toBe(true);
    const services = await api<{ data: { serviceName: string }[] }>(page, '/services/getAllServices');
    expect(services.data.filter((s) => s.serviceName.toLowerCase().replace(/\s+/g, ' ') === 'mobile recharge')).toHaveLength(1);
  });
});

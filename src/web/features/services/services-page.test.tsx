import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import ServicesPage from './services-page';

const SERVICES = [
  { serviceId: 1, serviceType: 'mobile_recharge', serviceName: 'Mobile Recharge', serviceIcon: '/uploads/service-icons/broken.png', status: true, category: 'Recharge', description: 'Recharge' },
  { serviceId: 2, serviceType: 'electricity_bill', serviceName: 'Electricity Bill', serviceIcon: null, status: false, category: 'Recharge', description: 'Electricity bill' },
];

describe('ServicesPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the columns, derives the category, shows No icon / Image not available, and filters', async () => {
    signIn(['services_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: SERVICES }));
    renderPage(<ServicesPage />);
    const bill = (await screen.findByText('Electricity Bill')).closest('tr') as HTMLElement;
    for (const h of ['S.No', 'Service Name', 'Service Icon', 'Status', 'Category', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    }
    expect(within(bill).getByText('BBPS')).toBeTruthy();
    expect(within(bill).getByText('No icon')).toBeTruthy();
    expect(within(bill).getByText('Inactive')).toBeTruthy();
    fireEvent.error(screen.getByAltText('Mobile Recharge icon'));
    expect(await screen.findByText('Image not available')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('Search services...'), { target: { value: 'mobile' } });
    expect(screen.queryByText('Electricity Bill')).toBeNull();
    fireEvent.change(screen.getByPlaceholderText('Search services...'), { target: { value: 'nothing' } });
    expect(screen.getByText('No services found')).toBeTruthy();
  });

  it('requires a name and an icon for a new service, then creates it as multipart', async () => {
    signIn(['services_view', 'services_manage']);
    const fetchMock = mockFetch((path, init) =>
      init.method === 'POST' ? jsonResponse(201, { success: true, message: 'Service created successfully', data: {} }) : jsonResponse(200, SERVICES),
    );
    renderPage(<ServicesPage />);
    await screen.findByText('Electricity Bill');
    fireEvent.click(screen.getByRole('button', { name: 'Add Service' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please fill in the service name')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Service Name/), { target: { value: 'FASTag' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please upload an icon for the new service')).toBeTruthy();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'icon.png', { type: 'image/png' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Service created successfully')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    const body = init!.body as FormData;
    expect(body.get('serviceName')).toBe('FASTag');
    expect(body.get('category')).toBe('Recharge');
    expect(body.get('status')).toBe('true');
    expect((body.get('serviceIcon') as File).name).toBe('icon.png');
  });

  it('edits as JSON and answers the server message on failure', async () => {
    signIn(['services_view', 'services_manage']);
    const fetchMock = mockFetch((path, init) =>
      init.method === 'PUT' ? jsonResponse(400, { success: false, message: 'The icon /x does not exist' }) : jsonResponse(200, { services: SERVICES }),
    );
    renderPage(<ServicesPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Electricity Bill' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('The icon /x does not exist')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(url).toBe('/api/services/updateService/2');
    expect(JSON.parse(String(init!.body))).toEqual({
      serviceType: 'electricity_bill', serviceName: 'Electricity Bill', category: 'BBPS', description: 'BBPS', status: false,
    });
  });

  it('issue 24: a rename to a name the category has is shown at the name field; a name over 100 characters is refused before sending', async () => {
    signIn(['services_view', 'services_manage']);
    const message = 'A BBPS service named Mobile Recharge already exists: choose another name';
    const fetchMock = mockFetch((path, init) =>
      init.method === 'PUT'
        ? jsonResponse(409, { success: false, message, errors: [{ path: 'body.serviceName', field: 'serviceName', message }] })
        : jsonResponse(200, { services: SERVICES }),
    );
    renderPage(<ServicesPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Electricity Bill' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByRole('textbox', { name: /Service Name/ }) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'S'.repeat(101) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('Service name must be at most 100 characters')).toBeTruthy();
    expect(name.value).toHaveLength(101);
    expect(fetchMock.mock.calls.some(([, i]) => i?.method === 'PUT')).toBe(false);
    fireEvent.change(name, { target: { value: 'Mobile Recharge' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    const shown = await within(dialog).findAllByText(message);
    expect(shown.length).toBeGreaterThan(0);
    expect(name.getAttribute('aria-invalid')).toBe('true');
  });

  it('falls back to the badged sample Mobile Recharge service on failure', async () => {
    signIn(['services_view']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'Database down' }));
    renderPage(<ServicesPage />);
    expect(await screen.findByText('Failed to load services: Database down')).toBeTruthy();
    expect(screen.getByText('Mobile Recharge')).toBeTruthy();
    expect(screen.getByText('Sample data')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
  });
});

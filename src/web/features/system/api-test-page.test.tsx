import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import ApiTestPage from './api-test-page';

describe('ApiTestPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('connects on open, shows Failed when the server is down, and retries', async () => {
    signIn();
    let up = true;
    const fetchMock = mockFetch(() => (up ? jsonResponse(200, { success: true, message: 'Backoffice API is running', version: '1.0.0' }) : jsonResponse(503, {})));
    renderPage(<ApiTestPage />);
    expect(await screen.findByText('Connected')).toBeTruthy();
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/');
    up = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry Connection' }));
    expect(await screen.findByText('Failed')).toBeTruthy();
  });
});

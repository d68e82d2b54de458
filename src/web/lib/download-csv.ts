import { ApiError } from './api-client';
import { clearSession, getToken } from './session';

/**
 * Downloads one of the server's streamed CSV exports with the bearer token. apiRequest reads
 * JSON only, so this is the one other fetch of the panel: it fetches the file as a blob and
 * hands it to the browser as a download.
 */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  const token = getToken();
  const response = await fetch(`/api${path}`, {
    headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) {
    if (response.status === 401) clearSession();
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(response.status, body?.message ?? `Download failed with status ${response.status}`, Boolean(body?.message));
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

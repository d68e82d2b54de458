import { clearSession, getToken } from './session';

const BASE_URL = '/api';

export interface FieldError {
  path: string;
  message: string;
}

/** Every failed call: the HTTP status (0 when the server was not reached) and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** False when the server sent no message of its own and `message` is generic. */
    readonly fromServer: boolean,
    readonly errors: FieldError[] = [],
    /** The whole error answer, for the fields a screen reads besides the message (sign-in's `twoFactorRequired`). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server's own message when there is one, else the screen's fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Public calls (login, register, password reset) send no token and treat 401 as an ordinary error. */
  auth?: boolean;
  signal?: AbortSignal;
  /** Money-moving POSTs send a fresh key per submitted form, so a double click pays once. */
  idempotencyKey?: string;
}

interface ErrorBody {
  message?: unknown;
  data?: { message?: unknown };
  errors?: unknown;
}

function messageOf(body: ErrorBody | null): string | null {
  if (typeof body?.message === 'string' && body.message) return body.message;
  if (typeof body?.data?.message === 'string' && body.data.message) return body.data.message;
  return null;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, auth = true, signal, idempotencyKey } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const isForm = body instanceof FormData; // multipart: the browser sets the boundary
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const token = auth ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${BASE_URL}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError(0, 'Could not reach the server', false);
  }

  const payload = await readJson(response);
  if (response.ok) return payload as T;

  // A rejected session: forget it; the sign-in guard then sends the visitor to /signin.
  if (response.status === 401 && auth) clearSession();
  const errorBody = payload as ErrorBody | null;
  const message = messageOf(errorBody);
  const errors = Array.isArray(errorBody?.errors) ? (errorBody.errors as FieldError[]) : [];
  throw new ApiError(response.status, message ?? `Request failed with status ${response.status}`, message !== null, errors, payload);
}

import {
  pathOf, type CallInput, type Endpoint, type EndpointGroup, type ResultOf,
} from '../../contract/endpoint';
import { clearSession, getToken } from './session';

const BASE_URL = '/api';

export interface FieldError {
  /** Where in the request: 'body.email'. */
  path: string;
  /** The field a form knows it by: 'email' (older servers send only `path`). */
  field?: string;
  message: string;
}

/** The message to show under each field of a form, by field name. */
export type FieldErrors = Partial<Record<string, string>>;

/** The per-field messages of a refused call (the first per field); empty for any other error. */
export function serverFieldErrors(error: unknown): FieldErrors {
  const result: FieldErrors = {};
  if (!(error instanceof ApiError)) return result;
  for (const { path, field, message } of error.errors) result[field ?? path.split('.').slice(1).join('.')] ??= message;
  return result;
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

async function send(path: string, options: RequestOptions = {}): Promise<{ status: number; payload: unknown }> {
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
  if (response.ok) return { status: response.status, payload };
  throw failure(response.status, payload, auth);
}

function failure(status: number, payload: unknown, auth: boolean): ApiError {
  // A rejected session: forget it; the sign-in guard then sends the visitor to /signin.
  if (status === 401 && auth) clearSession();
  const errorBody = payload as ErrorBody | null;
  const message = messageOf(errorBody);
  const errors = Array.isArray(errorBody?.errors) ? (errorBody.errors as FieldError[]) : [];
  return new ApiError(status, message ?? `Request failed with status ${status}`, message !== null, errors, payload);
}

async function sendForFile(path: string): Promise<Blob> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`${BASE_URL}${path}`, {
      headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
  } catch {
    throw new ApiError(0, 'Could not reach the server', false);
  }
  if (!response.ok) throw failure(response.status, await readJson(response), true);
  return response.blob();
}

// ---- The typed client: one caller per contract endpoint ----

export interface CallOptions {
  signal?: AbortSignal;
  /** Money-moving POSTs send a fresh key per submitted form, so a double click pays once. */
  idempotencyKey?: string;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends X`: X has no required field
type Args<E> = {} extends CallInput<E> ? [input?: CallInput<E>, options?: CallOptions] : [input: CallInput<E>, options?: CallOptions];

/** Calls one endpoint: fills the path, sends query and body, and parses the answer with the contract. */
export interface Caller<E extends Endpoint> {
  (...args: Args<E>): Promise<ResultOf<E>>;
  /** The query key of this call: [feature, endpoint, input]; invalidate [feature] to refresh them all. */
  key(input?: CallInput<E>): readonly [string, string, ...unknown[]];
  readonly endpoint: E;
}

export type Client<G extends EndpointGroup> = { readonly [K in keyof G]: Caller<G[K]> };

const INVALID_ANSWER = 'Invalid data format from API';

/** The server answered with success, but not in the shape its contract declares. */
export const isInvalidAnswer = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status >= 200 && error.status < 300;

/** The query string of a call: empty values are left out, so "no filter" sends nothing. */
function searchOf(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function urlOf(endpoint: Endpoint, input: unknown): string {
  const { params, query } = (input ?? {}) as { params?: Record<string, unknown>; query?: unknown };
  return pathOf(endpoint, params) + searchOf(query);
}

/** Parses an answer with the endpoint's schema for its status (or its first success schema). */
export function parseAnswer<E extends Endpoint>(endpoint: E, status: number, payload: unknown): ResultOf<E> {
  const responses = endpoint.responses as Record<number, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
  const schema = responses[status] ?? Object.values(responses)[0];
  if (!schema) return payload as ResultOf<E>;
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new ApiError(status, INVALID_ANSWER, false, [], payload);
  return parsed.data as ResultOf<E>;
}

function caller<E extends Endpoint>(endpoint: E): Caller<E> {
  const call = async (input?: CallInput<E>, options: CallOptions = {}) => {
    const { body } = (input ?? {}) as { body?: unknown };
    const { status, payload } = await send(urlOf(endpoint, input), {
      method: endpoint.method,
      body,
      auth: endpoint.access !== 'public',
      ...options,
    });
    return parseAnswer(endpoint, status, payload);
  };
  const key = (input?: CallInput<E>) => [endpoint.group, endpoint.name, ...(input === undefined ? [] : [input])] as const;
  return Object.assign(call, { key, endpoint }) as unknown as Caller<E>;
}

/** The typed client of one feature's endpoints: `const ranks = client(ranksApi); await ranks.list()`. */
export function client<G extends EndpointGroup>(group: G): Client<G> {
  const out: Record<string, Caller<Endpoint>> = {};
  for (const [name, endpoint] of Object.entries(group)) out[name] = caller(endpoint);
  return out as unknown as Client<G>;
}

/**
 * Downloads one of the server's streamed files (a CSV export) with the bearer token: it fetches
 * the file as a blob and hands it to the browser as a download.
 */
export async function download<E extends Endpoint>(endpoint: E, filename: string, ...[input]: Args<E>): Promise<void> {
  const blob = await sendForFile(urlOf(endpoint, input));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

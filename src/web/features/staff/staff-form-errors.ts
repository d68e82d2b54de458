import { ApiError } from '../../lib/api-client';

export type FieldErrors = Partial<Record<'fullName' | 'email' | 'roleId', string>>;

/** The server's per-field messages (`errors[].path` like 'body.email'), for the fields this screen has. */
export function fieldErrorsOf(error: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (!(error instanceof ApiError)) return out;
  for (const e of error.errors) {
    const field = e.path.replace(/^body\./, '');
    if ((field === 'fullName' || field === 'email' || field === 'roleId') && !out[field]) out[field] = e.message;
  }
  return out;
}

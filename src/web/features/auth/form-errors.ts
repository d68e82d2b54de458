import type { z } from 'zod';
import type { FieldError } from '../../lib/api-client';

export type FieldErrors = Partial<Record<string, string>>;

/** The first message per field of a failed schema check. */
export function schemaErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The per-field messages of a server 400 answer. */
export function serverFieldErrors(errors: readonly FieldError[]): FieldErrors {
  const result: FieldErrors = {};
  for (const { path, message } of errors) result[path.split('.')[0]] ??= message;
  return result;
}

import type { z } from 'zod';
import type { FieldErrors } from '../../lib/api-client';

/** The first message per field of a failed schema check. */
export function schemaErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}

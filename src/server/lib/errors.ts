/**
 * The one error type services and routes throw: an HTTP status and a message the client may read
 * (plus, rarely, extra fields of the answer). plugins/errors.ts turns it into
 * `{ success: false, message }`.
 */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** One refused input: where it was (`body.email`), the field a form knows it by (`email`), why. */
export interface InputProblem {
  path: string;
  field: string;
  message: string;
}

/** The 400 answer for refused input: the first problem in plain words, and all of them by field. */
export function invalidInput(errors: InputProblem[]): AppError {
  return new AppError(400, errors[0]?.message ?? 'Invalid request', { errors });
}

/** A problem from a schema issue's path within a part of the request ('body', 'querystring'). */
export function inputProblem(part: string, path: readonly PropertyKey[], message: string): InputProblem {
  const field = path.map(String).join('.');
  return { path: [part, field].filter(Boolean).join('.'), field, message };
}

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

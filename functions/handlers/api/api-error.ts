/** A request the API refuses, with the status and the message the caller sees. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly details: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    statusCode: number,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.details = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
    this.headers = headers;
  }
}

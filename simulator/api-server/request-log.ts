/** Every request the server answered, as the client sent it, for tests to assert on. */

export interface RecordedRequest {
  readonly method: string;
  /** The path without the query string, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  /** Query parameters, decoded (the last value wins when one repeats). */
  readonly query: Readonly<Record<string, string>>;
  readonly contentType: string | undefined;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  readonly body: unknown;
  /** The HTTP status the server answered with. */
  readonly status: number;
  /** Whether an injected fault produced the answer. */
  readonly faulted: boolean;
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export interface RequestRecordInput {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody: string;
  readonly status: number;
  readonly faulted: boolean;
}

export class RequestLog {
  readonly #entries: RecordedRequest[] = [];

  /** In the order they were answered. */
  get entries(): readonly RecordedRequest[] {
    return this.#entries;
  }

  record(input: RequestRecordInput): void {
    this.#entries.push({
      method: input.method,
      path: input.url.pathname,
      query: Object.fromEntries(input.url.searchParams),
      contentType: input.headers['content-type'],
      headers: input.headers,
      rawBody: input.rawBody,
      body: parseBody(input.rawBody),
      status: input.status,
      faulted: input.faulted,
    });
  }

  /** Requests with this method whose path equals `path` (a string) or matches it (a RegExp). */
  matching(method: string, path: string | RegExp): RecordedRequest[] {
    return this.#entries.filter(
      (entry) =>
        entry.method === method &&
        (typeof path === 'string' ? entry.path === path : path.test(entry.path)),
    );
  }

  clear(): void {
    this.#entries.length = 0;
  }
}

/**
 * An invocation that failed, as Lambda reports it to the caller: the error type and message in
 * the payload (`X-Amz-Function-Error: Unhandled`), from the handler's error, the init error, a
 * timeout (`Sandbox.Timedout`) or a process that exited (`Runtime.ExitError`).
 */
export class FunctionError extends Error {
  constructor(
    readonly errorType: string,
    readonly errorMessage: string,
    readonly trace: readonly string[] = [],
  ) {
    super(errorMessage);
    this.name = errorType;
  }

  /** The body the runtime posted to `.../error` or `/init/error`. */
  static fromBody(body: string, fallbackType: string): FunctionError {
    try {
      const parsed = JSON.parse(body) as {
        errorType?: string;
        errorMessage?: string;
        trace?: string[];
      };
      return new FunctionError(
        parsed.errorType ?? fallbackType,
        parsed.errorMessage ?? '',
        parsed.trace ?? [],
      );
    } catch {
      return new FunctionError(fallbackType, body);
    }
  }

  /** What Lambda answers when it stops an invocation at its timeout. */
  static timedOut(requestId: string, timeoutSeconds: number): FunctionError {
    return new FunctionError(
      'Sandbox.Timedout',
      `RequestId: ${requestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds`,
    );
  }

  /** What Lambda answers when the runtime's process ends during an invocation. */
  static exited(requestId: string, code: number | null, signal: string | null): FunctionError {
    const how = code === null ? `signal: ${signal}` : `exit status ${code}`;
    return new FunctionError(
      'Runtime.ExitError',
      `RequestId: ${requestId} Error: Runtime exited with error: ${how}`,
    );
  }

  /** The payload Lambda's Invoke returns for it. */
  toPayload(): { errorType: string; errorMessage: string; trace: readonly string[] } {
    return { errorType: this.errorType, errorMessage: this.errorMessage, trace: this.trace };
  }
}

/**
 * Injected failures, so adapters' error handling can be tested: the next N requests matching a
 * method and path answer with a chosen status and a Status body (`Retry-After` when asked for).
 * With `afterApply` the request takes effect first and only its answer is replaced, like a
 * response lost on the way back.
 */

import type { JsonObject } from './json.ts';
import { genericServerResponse, internalError } from './status-errors.ts';

export interface FaultSpec {
  /** Only requests with this method; any method when absent. */
  readonly method?: string;
  /** The exact path (without query), or a pattern it must match. */
  readonly path: string | RegExp;
  /** How many matching requests fail; 1 when absent. */
  readonly times?: number;
  readonly status: number;
  /**
   * The Status message; the server's generic wording for the status when absent. A 500 is worded
   * as an internal error (`Internal error occurred: <message>`).
   */
  readonly message?: string;
  /** Sent as the `Retry-After` header and `details.retryAfterSeconds`. */
  readonly retryAfterSeconds?: number;
  /** A body to send instead of the Status. */
  readonly body?: JsonObject;
  /** Apply the request, then answer with the fault. */
  readonly afterApply?: boolean;
}

export interface InjectedFault {
  /** Matching requests still to fail. */
  readonly remaining: number;
  /** Matching requests that failed so far. */
  readonly hits: number;
}

export interface FaultResponse {
  readonly status: number;
  readonly body: JsonObject;
  readonly headers: Readonly<Record<string, string>>;
}

class Fault implements InjectedFault {
  readonly spec: FaultSpec;
  remaining: number;
  hits = 0;

  constructor(spec: FaultSpec) {
    this.spec = spec;
    this.remaining = spec.times ?? 1;
  }

  matches(method: string, path: string): boolean {
    if (this.remaining <= 0) return false;
    if (this.spec.method !== undefined && this.spec.method.toUpperCase() !== method) return false;
    return typeof this.spec.path === 'string' ? this.spec.path === path : this.spec.path.test(path);
  }

  response(): FaultResponse {
    const { status, message, retryAfterSeconds, body } = this.spec;
    const headers: Record<string, string> = {};
    if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
    const failure =
      status === 500
        ? internalError(message ?? 'injected failure')
        : genericServerResponse(status, message, retryAfterSeconds);
    return { status, body: body ?? failure.status, headers };
  }
}

export class FaultInjector {
  readonly #faults: Fault[] = [];

  inject(spec: FaultSpec): InjectedFault {
    const fault = new Fault(spec);
    this.#faults.push(fault);
    return fault;
  }

  /** The first fault that matches and has failures left, now spent once. */
  take(method: string, path: string): { response: FaultResponse; afterApply: boolean } | undefined {
    const fault = this.#faults.find((f) => f.matches(method, path));
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    fault.hits += 1;
    return { response: fault.response(), afterApply: fault.spec.afterApply ?? false };
  }

  clear(): void {
    this.#faults.length = 0;
  }
}

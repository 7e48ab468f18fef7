/**
 * A function as Lambda scales it: an invocation goes to a warm container that is free, else to a
 * new one, up to the function's reserved concurrency; beyond it the invocation is throttled
 * with `TooManyRequestsException`, as Lambda refuses it. Containers stay warm between
 * invocations until the function is closed; one that timed out or crashed is replaced.
 */
import { AwsError } from '../aws/aws-service.ts';
import { Container, type ContainerOptions } from './container.ts';
import type { FunctionDefinition } from './function-definition.ts';

/** How many invocations it ran and how long they took, for the run's report. */
export interface InvocationTally {
  invocations: number;
  /** Invocations that have returned or failed: what they wrote is written. */
  ended: number;
  errors: number;
  durationMs: number;
  coldStarts: number;
}

export class LambdaFunction {
  readonly definition: FunctionDefinition;
  readonly tally: InvocationTally = {
    invocations: 0,
    ended: 0,
    errors: 0,
    durationMs: 0,
    coldStarts: 0,
  };
  readonly #options: ContainerOptions;
  #containers: Container[] = [];
  #starting = 0;

  constructor(definition: FunctionDefinition, options: ContainerOptions) {
    this.definition = definition;
    this.#options = options;
  }

  /** Containers alive now (warm or busy). */
  get containers(): number {
    return this.#containers.length;
  }

  /** Runs the event through a container; resolves with the handler's result. */
  async invoke(event: unknown): Promise<unknown> {
    this.#containers = this.#containers.filter((c) => !c.dead);
    const warm = this.#containers.find((c) => !c.busy);
    const container = warm ?? (await this.#coldStart());
    const started = Date.now();
    // Taken before any await: no other invocation can pick it while this one runs.
    const running = container.invoke(JSON.stringify(event));
    if (warm === undefined) {
      this.#containers.push(container);
      this.#starting -= 1;
    }
    this.tally.invocations += 1;
    try {
      return JSON.parse(await running);
    } catch (err) {
      this.tally.errors += 1;
      throw err;
    } finally {
      this.tally.durationMs += Date.now() - started;
      this.tally.ended += 1;
      if (container.dead) this.#containers = this.#containers.filter((c) => c !== container);
    }
  }

  async close(): Promise<void> {
    const containers = this.#containers;
    this.#containers = [];
    await Promise.all(containers.map((c) => c.close()));
  }

  /** A new container, when the reserved concurrency leaves room; counted as starting until kept. */
  async #coldStart(): Promise<Container> {
    const limit = this.definition.reservedConcurrency ?? Number.POSITIVE_INFINITY;
    if (this.#containers.length + this.#starting >= limit) {
      throw new AwsError('TooManyRequestsException', 'Rate Exceeded.', 429);
    }
    this.tally.coldStarts += 1;
    this.#starting += 1;
    try {
      return await Container.start(this.definition, this.#options);
    } catch (err) {
      this.#starting -= 1;
      throw err;
    }
  }
}

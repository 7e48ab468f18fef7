/**
 * Faults at the controller's ports: a process exit at a chosen call (before it is made, or after
 * it took effect and before its answer is used), and EC2 refusing calls for rate. An invocation
 * that exits makes no further call: every later one, and the answer of every call still in
 * flight, never comes back, as when Lambda's process is gone.
 */
import { InsufficientCapacityError, ThrottledError } from '../../functions/ports/errors.ts';
import type { FaultTally } from './fault-tally.ts';
import { type CallHook, throughHook } from './port-calls.ts';
import type { ControllerPorts } from './world-faults.ts';

/** Where an invocation exits: the `occurrence`-th call of `call` in the run (of any call when absent). */
export interface ExitPoint {
  readonly call?: string;
  readonly occurrence: number;
  /** `before`: the call is never made; `after`: it takes effect, its answer is lost. */
  readonly when: 'before' | 'after';
}

export interface ControllerFaultPlan {
  readonly exits: readonly ExitPoint[];
  /** The share of cloud calls EC2 refuses for rate (after the SDK's own retries). */
  readonly throttleRate: number;
}

const gone = new Promise<never>(() => undefined);

export class ControllerFaults {
  readonly #plan: ControllerFaultPlan;
  readonly #tally: FaultTally;
  readonly #random: () => number;
  readonly #calls = new Map<string, number>();
  #allCalls = 0;

  constructor(plan: ControllerFaultPlan, tally: FaultTally, random: () => number) {
    this.#plan = plan;
    this.#tally = tally;
    this.#random = random;
  }

  /** The ports of one invocation; `exit` ends it. */
  ports(ports: ControllerPorts, exit: () => void): ControllerPorts {
    let exited = false;
    const hook: CallHook = async (name, call) => {
      if (exited) return gone;
      const point = this.#exitPoint(name);
      if (point?.when === 'before') {
        exited = true;
        this.#tally.add(`process exit before ${name}`);
        exit();
        return gone;
      }
      this.#throttle(name);
      const settled = await this.#observe(name, call);
      if (point?.when === 'after') {
        exited = true;
        this.#tally.add(`process exit after ${name}`);
        exit();
      }
      if (exited) return gone;
      if ('error' in settled) throw settled.error;
      return settled.value;
    };
    return {
      state: throughHook(ports.state, 'state', hook),
      cloud: throughHook(ports.cloud, 'cloud', hook),
      cluster: throughHook(ports.cluster, 'cluster', hook),
    };
  }

  /** The exit point this call reaches, counting it. */
  #exitPoint(name: string): ExitPoint | undefined {
    const nth = (this.#calls.get(name) ?? 0) + 1;
    this.#calls.set(name, nth);
    this.#allCalls += 1;
    return this.#plan.exits.find((p) =>
      p.call === undefined
        ? p.occurrence === this.#allCalls
        : p.call === name && p.occurrence === nth,
    );
  }

  #throttle(name: string): void {
    if (!name.startsWith('cloud.') || name === 'cloud.prices') return;
    if (this.#random() >= this.#plan.throttleRate) return;
    this.#tally.add('EC2 throttling');
    throw new ThrottledError(`${name}: request limit exceeded (injected)`);
  }

  /** Runs the call and notes each launch that met offerings without capacity. */
  async #observe(
    name: string,
    call: () => Promise<unknown>,
  ): Promise<{ value: unknown } | { error: unknown }> {
    try {
      const value = await call();
      const skipped = (value as { unavailableOfferings?: readonly unknown[] } | undefined)
        ?.unavailableOfferings;
      if (name === 'cloud.launch' && (skipped?.length ?? 0) > 0) {
        this.#tally.add('insufficient capacity');
      }
      return { value };
    } catch (error) {
      if (error instanceof InsufficientCapacityError) this.#tally.add('insufficient capacity');
      return { error };
    }
  }
}

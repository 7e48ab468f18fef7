/**
 * Faults of the Kubernetes API server as Nodesmith's client sees them: 409 on node patches and
 * evictions, 429 with Retry-After, 500 and 504 (the apiserver's own timeout, which "may still be
 * processing the request": sometimes the write took effect) on the requests the controller and
 * the interruption function make. They are armed at chosen seconds of the run through the fake
 * API server's fault injector and counted when a request meets them.
 */
import type { FaultSpec, InjectedFault } from '../api-server/faults.ts';
import type { FakeApiServer } from '../api-server/server.ts';
import type { Random } from '../scenarios/random.ts';
import type { FaultTally } from './fault-tally.ts';

interface Target {
  readonly method: string;
  readonly path: RegExp;
  /** Statuses that make sense for it: 409 only where the server checks versions or preconditions. */
  readonly statuses: readonly number[];
  /** A write, so a 504 may come after it took effect. */
  readonly write: boolean;
}

const TARGETS: readonly Target[] = [
  { method: 'GET', path: /^\/api\/v1\/nodes$/, statuses: [429, 500, 504], write: false },
  { method: 'GET', path: /^\/api\/v1\/pods$/, statuses: [429, 500, 504], write: false },
  { method: 'GET', path: /^\/api\/v1\/nodes\/[^/]+$/, statuses: [429, 500, 504], write: false },
  {
    method: 'PATCH',
    path: /^\/api\/v1\/nodes\/[^/]+$/,
    statuses: [409, 429, 500, 504],
    write: true,
  },
  { method: 'PUT', path: /^\/api\/v1\/nodes\/[^/]+$/, statuses: [409, 429, 500, 504], write: true },
  { method: 'DELETE', path: /^\/api\/v1\/nodes\/[^/]+$/, statuses: [429, 500, 504], write: true },
  { method: 'POST', path: /\/pods\/[^/]+\/eviction$/, statuses: [429, 500, 504], write: true },
  { method: 'DELETE', path: /\/pods\/[^/]+$/, statuses: [429, 500, 504], write: true },
  { method: 'POST', path: /\/events$/, statuses: [429, 500, 504], write: true },
];

export interface ArmedFault {
  /** The second of the run it is armed at. */
  readonly at: number;
  readonly spec: FaultSpec;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** `count` faults armed at random seconds before `lastSecond`. */
export function planKubernetesFaults(
  random: Random,
  count: number,
  lastSecond: number,
): ArmedFault[] {
  return Array.from({ length: count }, () => {
    const target = pick(random, TARGETS);
    const status = pick(random, target.statuses);
    const spec: FaultSpec = {
      method: target.method,
      path: target.path,
      status,
      times: 1 + Math.floor(random() * 3),
      ...(status === 429 ? { retryAfterSeconds: 1 } : {}),
      ...(status === 504 && target.write && random() < 0.5 ? { afterApply: true } : {}),
    };
    return { at: Math.floor(random() * lastSecond), spec };
  }).sort((a, b) => a.at - b.at);
}

function kindOf(spec: FaultSpec): string {
  const applied = spec.afterApply ? ' after the write applied' : '';
  return spec.status === 504 ? `Kubernetes 504 timeout${applied}` : `Kubernetes ${spec.status}`;
}

export class KubernetesFaults {
  readonly #pending: ArmedFault[];
  readonly #armed: { readonly spec: FaultSpec; readonly fault: InjectedFault }[] = [];

  constructor(faults: readonly ArmedFault[]) {
    this.#pending = [...faults];
  }

  /** Arms the faults due at second `t`. */
  second(t: number, server: FakeApiServer): void {
    while (this.#pending[0] !== undefined && this.#pending[0].at <= t) {
      const { spec } = this.#pending.shift() as ArmedFault;
      this.#armed.push({ spec, fault: server.faults.inject(spec) });
    }
  }

  /** Counts the requests that met a fault. */
  tallyInto(tally: FaultTally): void {
    for (const { spec, fault } of this.#armed) tally.add(kindOf(spec), fault.hits);
  }
}

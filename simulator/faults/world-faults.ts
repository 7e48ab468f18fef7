/**
 * Where the simulated world lets a fault plan in: the ports one controller invocation works
 * through, the delivery of wakes and interruption events, the kubelets, and the API server each
 * simulated second. Every hook is optional; a world without a plan runs undisturbed.
 */

import type { LaunchedInstance } from '../../functions/ports/cloud-provider.ts';
import type { Wake } from '../../functions/ports/wake.ts';
import type { PassDependencies } from '../../functions/use-cases/controller/pass-dependencies.ts';
import type { FakeApiServer } from '../api-server/server.ts';
import type { SimulatedCloud } from '../cloud/simulated-cloud.ts';

/** The ports a controller pass reaches the outside through. */
export type ControllerPorts = Pick<PassDependencies, 'state' | 'cloud' | 'cluster'>;

export interface WorldFaults {
  /**
   * The ports one controller invocation sees. Calling `exit` ends the invocation there, as a
   * process exit or a Lambda timeout would: it never finishes, its lease is never released, and
   * its wakes come back after the queue's visibility timeout for a fresh invocation.
   */
  controllerPorts?(invocation: string, ports: ControllerPorts, exit: () => void): ControllerPorts;
  /** The extra delays of the copies of a wake that arrive (see SimulatedWorkQueue). */
  wakeCopies?(wake: Wake): readonly number[];
  /**
   * The SQS batches that interruption events sent at once arrive in, each so many seconds
   * after they were sent (0: at once, in order).
   */
  interruptionBatches?(bodies: readonly string[]): readonly InterruptionBatch[];
  /** Whether the kubelet of a launched instance ever registers its node. */
  registers?(instance: Pick<LaunchedInstance, 'instanceId'>): boolean;
  /** At the start of simulated second `t`, before anything else happens in it. */
  second?(
    t: number,
    world: { readonly server: FakeApiServer; readonly cloud: SimulatedCloud },
  ): void;
}

export interface InterruptionBatch {
  readonly afterSeconds: number;
  readonly bodies: readonly string[];
}

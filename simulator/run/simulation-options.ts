/** How a simulation runs: its seed, delivery faults and where its state lives. */
import type { StateStore } from '../../functions/ports/state-store.ts';
import type { WorldFaults } from '../faults/world-faults.ts';
import type { WorldOptions } from './world.ts';

export interface SimulationOptions {
  readonly seed: number;
  /** How pending pods wake the controller (`--wake`); the admission webhook when absent. */
  readonly wake?: WorldOptions['wake'];
  readonly duplicateWakes?: boolean;
  readonly state?: StateStore;
  /** Told about each timeline line as it happens. */
  readonly onProgress?: (line: string) => void;
  /** Controller invocations run at once for each batch of due wakes (passes racing). */
  readonly concurrentPasses?: number;
  /** Wraps the cloud the controller sees, to inject faults. */
  readonly cloudSeenByController?: WorldOptions['cloudSeenByController'];
  /** Faults injected into the run; none when absent. */
  readonly faults?: WorldFaults;
  /** The controller adopts Karpenter's nodes (`--adopt-karpenter-nodes`). */
  readonly adoptKarpenterNodes?: boolean;
  /** The cluster is self-managed (`--self-managed`): its audit log posted by kube-apiserver. */
  readonly selfManaged?: boolean;
  /** Nodesmith as deployed (simulator/deployed/deployed-run.ts); in this process when absent. */
  readonly deploy?: WorldOptions['deploy'];
}

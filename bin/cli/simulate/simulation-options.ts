/** How a simulation runs: its seed, delivery faults and where its state lives. */
import type { StateStore } from '../../../functions/ports/state-store.ts';

export interface SimulationOptions {
  readonly seed: number;
  readonly duplicateWakes?: boolean;
  readonly state?: StateStore;
  /** Told about each timeline line as it happens. */
  readonly onProgress?: (line: string) => void;
}

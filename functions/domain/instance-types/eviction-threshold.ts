/**
 * The hard eviction thresholds kubelet keeps free, which it subtracts from allocatable (aws:
 * pkg/providers/instancetype/types.go `evictionThreshold`).
 *
 * Only `evictionHard` counts. Karpenter v1.0 also took the larger of `evictionSoft` and
 * `evictionHard`; later v1.x releases dropped that because kubelet subtracts only hard
 * thresholds from allocatable, and Nodesmith follows them (v1.14).
 */
import { parseUnits } from '../quantity.ts';
import { MiB, ResourceName, type Resources } from '../resources.ts';

const MEMORY_AVAILABLE = 'memory.available';
const NODEFS_AVAILABLE = 'nodefs.available';

/** kubelet's defaults: 100Mi of memory, 10 % of the node filesystem. */
const DEFAULT_MEMORY_BYTES = 100 * MiB;
const DEFAULT_NODEFS_PERCENT = 10;

function parsePercent(signal: string, value: string): number {
  const percent = Number(value.slice(0, -1));
  if (value.trim() === '%' || !Number.isFinite(percent)) {
    throw new Error(`evictionHard ${signal}: "${value}" is not a percentage`);
  }
  // kubelet reads 100% as "threshold disabled".
  return percent === 100 ? 0 : percent;
}

/** A signal's amount: a quantity, or a percentage of the capacity it watches (rounded up). */
function signalBytes(signal: string, value: string, capacity: number): number {
  if (!value.endsWith('%')) return parseUnits(value);
  return Math.ceil((capacity / 100) * parsePercent(signal, value));
}

export interface EvictionThresholdInput {
  /** Memory capacity in bytes (after the VM overhead). */
  readonly memoryBytes: number;
  readonly ephemeralStorageBytes: number;
  readonly evictionHard: Readonly<Record<string, string>> | undefined;
}

export function evictionThreshold({
  memoryBytes,
  ephemeralStorageBytes,
  evictionHard,
}: EvictionThresholdInput): Resources {
  const memory = evictionHard?.[MEMORY_AVAILABLE];
  const nodefs = evictionHard?.[NODEFS_AVAILABLE];
  return {
    [ResourceName.memory]:
      memory === undefined
        ? DEFAULT_MEMORY_BYTES
        : signalBytes(MEMORY_AVAILABLE, memory, memoryBytes),
    [ResourceName.ephemeralStorage]:
      nodefs === undefined
        ? Math.ceil((ephemeralStorageBytes / 100) * DEFAULT_NODEFS_PERCENT)
        : signalBytes(NODEFS_AVAILABLE, nodefs, ephemeralStorageBytes),
  };
}

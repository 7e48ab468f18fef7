/**
 * `spec.kubelet` of an EC2NodeClass in its v1 struct form: the settings that drive allocatable
 * (reserved resources, eviction thresholds, pod density) and a few passed to the kubelet
 * (aws: pkg/apis/v1/ec2nodeclass.go `KubeletConfiguration` and its CEL rules).
 */
import * as z from 'zod';
import { isQuantity } from '../../domain/quantity.ts';
import { formatted, nonNegativeInt, patterned } from './fields.ts';
import { GO_DURATION, isEvictionThreshold } from './formats.ts';
import { keyedMap } from './keyed-map.ts';

const RESERVED_RESOURCES = ['cpu', 'memory', 'ephemeral-storage', 'pid'];
const EVICTION_SIGNALS = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'pid.available',
];

const reservedQuantity = formatted(
  (text) => isQuantity(text) && !text.trim().startsWith('-'),
  'a non-negative quantity such as 100m or 1Gi',
);
const threshold = formatted(
  isEvictionThreshold,
  'a percentage such as 10% or a quantity such as 500Mi',
);
const gracePeriod = patterned(GO_DURATION, 'a duration such as 1m30s');
const percent = z.int().min(0).max(100);

const fields = z.strictObject({
  clusterDNS: z.array(z.string()).optional(),
  maxPods: nonNegativeInt.optional(),
  podsPerCore: nonNegativeInt.optional(),
  systemReserved: keyedMap('systemReserved', RESERVED_RESOURCES, reservedQuantity).optional(),
  kubeReserved: keyedMap('kubeReserved', RESERVED_RESOURCES, reservedQuantity).optional(),
  evictionHard: keyedMap('evictionHard', EVICTION_SIGNALS, threshold).optional(),
  evictionSoft: keyedMap('evictionSoft', EVICTION_SIGNALS, threshold).optional(),
  evictionSoftGracePeriod: keyedMap(
    'evictionSoftGracePeriod',
    EVICTION_SIGNALS,
    gracePeriod,
  ).optional(),
  evictionMaxPodGracePeriod: z.int().optional(),
  imageGCHighThresholdPercent: percent.optional(),
  imageGCLowThresholdPercent: percent.optional(),
  cpuCFSQuota: z.boolean().optional(),
});
type Kubelet = z.output<typeof fields>;

function checkImageGC(kubelet: Kubelet, ctx: z.RefinementCtx): void {
  const high = kubelet.imageGCHighThresholdPercent;
  const low = kubelet.imageGCLowThresholdPercent;
  if (high === undefined || low === undefined || high > low) return;
  ctx.addIssue({
    code: 'custom',
    message: `imageGCHighThresholdPercent (${high}) must be greater than imageGCLowThresholdPercent (${low})`,
    path: ['imageGCHighThresholdPercent'],
  });
}

/** Every soft threshold needs a grace period for the same signal, and the other way round. */
function checkSoftEviction(kubelet: Kubelet, ctx: z.RefinementCtx): void {
  const soft = kubelet.evictionSoft ?? {};
  const grace = kubelet.evictionSoftGracePeriod ?? {};
  for (const [field, keys, other] of [
    ['evictionSoft', Object.keys(soft), grace],
    ['evictionSoftGracePeriod', Object.keys(grace), soft],
  ] as const) {
    const unmatched = keys.find((key) => !(key in other));
    if (unmatched === undefined) continue;
    const partner = field === 'evictionSoft' ? 'evictionSoftGracePeriod' : 'evictionSoft';
    ctx.addIssue({
      code: 'custom',
      message: `${field}[${unmatched}] has no matching ${partner}[${unmatched}]`,
      path: [field, unmatched],
    });
  }
}

export const kubelet = fields.superRefine((value, ctx) => {
  checkImageGC(value, ctx);
  checkSoftEviction(value, ctx);
});

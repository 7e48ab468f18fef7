/**
 * `nodesmith.io/v1` ClusterLimits, as `plan --limits FILE`, `PUT /v1/limits` and the
 * deployment's starting value take it:
 *
 *   apiVersion: nodesmith.io/v1
 *   kind: ClusterLimits
 *   metadata: { name: cluster }
 *   spec:
 *     limits: { nodes: "400", cpu: "2000", nodesmith.io/hourly-cost: "900" }
 *
 * A key that is neither a known limit nor an extended resource (`vendor.com/name`) is refused,
 * so a misspelt limit is never silently ignored.
 */
import * as z from 'zod';
import { CLUSTER_LIMIT_NAMES } from '../../contract/cluster-limit-names.ts';
import {
  CLUSTER_LIMITS_NAME,
  CLUSTER_LIMITS_TYPE,
  type ClusterLimits,
} from '../../domain/limits/cluster-limits.ts';
import { quantity } from '../karpenter/fields.ts';
import { isQualifiedName } from '../karpenter/formats.ts';
import { objectMeta } from '../karpenter/object-meta.ts';
import { parseDocument } from '../karpenter/parse-document.ts';

const KNOWN: ReadonlySet<string> = new Set(CLUSTER_LIMIT_NAMES);

function isLimitKey(key: string): boolean {
  return KNOWN.has(key) || (key.includes('/') && isQualifiedName(key));
}

const limits = z.record(z.string(), quantity).superRefine((list, ctx) => {
  for (const key of Object.keys(list)) {
    if (isLimitKey(key)) continue;
    ctx.addIssue({
      code: 'custom',
      message: `unknown limit "${key}": expected ${CLUSTER_LIMIT_NAMES.join(', ')} or an extended resource such as vendor.com/device`,
      path: [key],
    });
  }
});

export const clusterLimitsSchema = z.strictObject({
  apiVersion: z.literal(CLUSTER_LIMITS_TYPE.apiVersion),
  kind: z.literal(CLUSTER_LIMITS_TYPE.kind),
  metadata: objectMeta.optional(),
  spec: z.strictObject({ limits }),
});

/** Validates a ClusterLimits document; throws ManifestError naming the field. */
export function parseClusterLimits(doc: unknown): ClusterLimits {
  const parsed = parseDocument(clusterLimitsSchema, CLUSTER_LIMITS_TYPE, doc);
  return {
    ...CLUSTER_LIMITS_TYPE,
    metadata: { name: parsed.metadata?.name ?? CLUSTER_LIMITS_NAME },
    spec: parsed.spec,
  };
}

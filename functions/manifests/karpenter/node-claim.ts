/**
 * `karpenter.sh/v1` NodeClaim as `kubectl get nodeclaims -o yaml` prints it. Karpenter writes
 * these, so the requirements may name `karpenter.sh/nodepool` (every claim carries its pool) but
 * must otherwise obey the same rules as a NodePool's (core: pkg/apis/v1/nodeclaim.go).
 */
import * as z from 'zod';
import type { NodeClaim } from '../../domain/node-claim.ts';
import type { Assignable } from './assignable.ts';
import { conditions } from './conditions.ts';
import { duration, durationOrNever, resourceList, timestamp } from './fields.ts';
import { nodeClassRef } from './node-class-ref.ts';
import { objectMeta } from './object-meta.ts';
import { parseDocument } from './parse-document.ts';
import { requirements } from './requirements.ts';
import { checkDuplicateTaints, taints } from './taints.ts';

export const NODE_CLAIM_TYPE = { apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim' } as const;

const spec = z
  .strictObject({
    taints: taints.optional(),
    startupTaints: taints.optional(),
    requirements: requirements('NodeClaim'),
    resources: z.strictObject({ requests: resourceList.optional() }).optional(),
    nodeClassRef,
    expireAfter: durationOrNever.default('720h'),
    terminationGracePeriod: duration.optional(),
  })
  .superRefine(checkDuplicateTaints);

/** Written by Karpenter: known fields are typed, newer ones carried. */
const status = z.looseObject({
  nodeName: z.string().optional(),
  providerID: z.string().optional(),
  imageID: z.string().optional(),
  capacity: resourceList.optional(),
  allocatable: resourceList.optional(),
  conditions: conditions.optional(),
  lastPodEventTime: timestamp.optional(),
});

export const nodeClaimSchema = z.strictObject({
  apiVersion: z.literal(NODE_CLAIM_TYPE.apiVersion),
  kind: z.literal(NODE_CLAIM_TYPE.kind),
  metadata: objectMeta,
  spec,
  status: status.optional(),
});

export type NodeClaimDocument = Assignable<z.output<typeof nodeClaimSchema>, NodeClaim>;

/**
 * Validates a NodeClaim as Karpenter's CRD would and fills in its defaults.
 * @throws ManifestError naming the first invalid field, e.g. `spec.requirements[0].values`
 */
export function parseNodeClaim(doc: unknown): NodeClaimDocument {
  return parseDocument(nodeClaimSchema, NODE_CLAIM_TYPE, doc);
}

/**
 * `karpenter.sh/v1` NodePool: the complete document as users write it and as
 * `kubectl get nodepools -o yaml` prints it, with Karpenter's CRD validation and defaults
 * (core: pkg/apis/v1/nodepool.go, nodepool_validation.go; the generated CRD's CEL rules).
 */
import * as z from 'zod';
import type { NodePool } from '../../domain/node-pool.ts';
import type { Assignable } from './assignable.ts';
import { conditions } from './conditions.ts';
import { disruption } from './disruption.ts';
import { duration, durationOrNever, nonNegativeInt, resourceList } from './fields.ts';
import { nodeClassRef } from './node-class-ref.ts';
import { objectMeta } from './object-meta.ts';
import { parseDocument } from './parse-document.ts';
import { requirements } from './requirements.ts';
import { checkDuplicateTaints, taints } from './taints.ts';
import { templateMetadata } from './template-metadata.ts';

export const NODE_POOL_TYPE = { apiVersion: 'karpenter.sh/v1', kind: 'NodePool' } as const;

const templateSpec = z
  .strictObject({
    taints: taints.optional(),
    startupTaints: taints.optional(),
    requirements: requirements('NodePool'),
    nodeClassRef,
    expireAfter: durationOrNever.default('720h'),
    terminationGracePeriod: duration.optional(),
  })
  .superRefine(checkDuplicateTaints);

interface StaticPoolFields {
  readonly replicas?: number | undefined;
  readonly weight?: number | undefined;
  readonly limits?: Readonly<Record<string, unknown>> | undefined;
}

/** A static pool (replicas set) keeps a fixed size: no weight, and only a node-count limit. */
function checkStaticPool(spec: StaticPoolFields, ctx: z.RefinementCtx): void {
  if (spec.replicas === undefined) return;
  if (spec.weight !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'weight is not supported on a static NodePool (one with replicas)',
      path: ['weight'],
    });
  }
  const other = Object.keys(spec.limits ?? {}).find((resource) => resource !== 'nodes');
  if (other !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `only limits.nodes is supported on a static NodePool (one with replicas), not ${other}`,
      path: ['limits', other],
    });
  }
}

const spec = z
  .strictObject({
    template: z.strictObject({ metadata: templateMetadata.optional(), spec: templateSpec }),
    disruption,
    limits: resourceList.optional(),
    weight: z.int().min(1).max(100).optional(),
    replicas: nonNegativeInt.optional(),
  })
  .superRefine(checkStaticPool);

/** Written by Karpenter: known fields are typed, newer ones carried. */
const status = z.looseObject({
  resources: resourceList.optional(),
  nodes: nonNegativeInt.default(0),
  nodeClassObservedGeneration: z.int().optional(),
  conditions: conditions.optional(),
});

export const nodePoolSchema = z.strictObject({
  apiVersion: z.literal(NODE_POOL_TYPE.apiVersion),
  kind: z.literal(NODE_POOL_TYPE.kind),
  metadata: objectMeta,
  spec,
  status: status.optional(),
});

export type NodePoolDocument = Assignable<z.output<typeof nodePoolSchema>, NodePool>;

/**
 * Validates a NodePool as Karpenter's CRD would and fills in its defaults.
 * @throws ManifestError naming the first invalid field, e.g. `spec.template.spec.requirements[2].operator`
 */
export function parseNodePool(doc: unknown): NodePoolDocument {
  return parseDocument(nodePoolSchema, NODE_POOL_TYPE, doc);
}

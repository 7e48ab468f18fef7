/**
 * `karpenter.sh/v1alpha1` NodeOverlay with its CRD's validation (kubernetes-sigs/karpenter
 * pkg/apis/v1alpha1/nodeoverlay.go and nodeoverlay_validation.go): requirements on well-known
 * and NodePool labels, one of `price` and `priceAdjustment`, capacity for extended resources only.
 */
import * as z from 'zod';
import type { NodeOverlay } from '../../domain/overlays/node-overlay.ts';
import { OPERATORS } from '../../domain/requirements/requirement.ts';
import { ResourceName } from '../../domain/resources.ts';
import type { Assignable } from './assignable.ts';
import { conditions } from './conditions.ts';
import { labelValue, patterned, qualifiedName, resourceList } from './fields.ts';
import { objectMeta } from './object-meta.ts';
import { parseDocument } from './parse-document.ts';
import { restrictedKeyReason, valuesProblem } from './requirements.ts';

export const NODE_OVERLAY_TYPE = {
  apiVersion: 'karpenter.sh/v1alpha1',
  kind: 'NodeOverlay',
} as const;

const requirement = z
  .strictObject({
    key: qualifiedName,
    operator: z.enum(OPERATORS),
    values: z.array(labelValue).optional(),
  })
  .superRefine((req, ctx) => {
    const keyReason = restrictedKeyReason(req.key, 'NodeOverlay');
    if (keyReason !== undefined)
      ctx.addIssue({ code: 'custom', message: keyReason, path: ['key'] });
    const values =
      req.operator === 'NotIn' && (req.values ?? []).length === 0
        ? 'operator NotIn needs at least one value'
        : valuesProblem(req);
    if (values !== undefined) ctx.addIssue({ code: 'custom', message: values, path: ['values'] });
  });

/** The resources a node's kubelet reports itself; an overlay may only add extended ones. */
const STANDARD_RESOURCES: ReadonlySet<string> = new Set([
  ResourceName.cpu,
  ResourceName.memory,
  ResourceName.ephemeralStorage,
  ResourceName.pods,
]);

const capacity = resourceList.superRefine((list, ctx) => {
  for (const name of Object.keys(list)) {
    if (!STANDARD_RESOURCES.has(name)) continue;
    const message = `${name} cannot be overlaid: capacity adds extended resources only`;
    ctx.addIssue({ code: 'custom', message, path: [name] });
  }
});

const spec = z
  .strictObject({
    requirements: z.array(requirement).max(100),
    priceAdjustment: patterned(
      /^(([+-]\d*\.?\d+)|(\+\d*\.?\d+%)|(-\d{1,2}(\.\d+)?%)|(-100%))$/,
      'a price adjustment such as +0.1, -0.05, +10% or -15% (at most -100%)',
    ).optional(),
    price: patterned(/^\d+(\.\d+)?$/, 'a price such as 0.5').optional(),
    capacity: capacity.optional(),
    weight: z.int().min(1).max(10000).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.price === undefined || s.priceAdjustment === undefined) return;
    const message = "cannot set both 'price' and 'priceAdjustment'";
    ctx.addIssue({ code: 'custom', message, path: ['priceAdjustment'] });
  });

export const nodeOverlaySchema = z.strictObject({
  apiVersion: z.literal(NODE_OVERLAY_TYPE.apiVersion),
  kind: z.literal(NODE_OVERLAY_TYPE.kind),
  metadata: objectMeta,
  spec,
  status: z.looseObject({ conditions: conditions.optional() }).optional(),
});

export type NodeOverlayDocument = Assignable<z.output<typeof nodeOverlaySchema>, NodeOverlay>;

/**
 * Validates a NodeOverlay as Karpenter's CRD and webhook would.
 * @throws ManifestError naming the first invalid field, e.g. `spec.capacity.cpu`
 */
export function parseNodeOverlay(doc: unknown): NodeOverlayDocument {
  return parseDocument(nodeOverlaySchema, NODE_OVERLAY_TYPE, doc);
}

/**
 * `autoscaling/v1` Scale, the body of a scale subresource: what a NodePool's `spec.replicas`
 * reads and writes through (core: pkg/apis/v1/nodepool.go, `+kubebuilder:subresource:scale`).
 * A PUT sends the whole Scale; a PATCH (as `kubectl scale` sends it) a merge patch holding
 * `spec.replicas`.
 */
import * as z from 'zod';
import { nonNegativeInt } from '../karpenter/fields.ts';
import { parseDocument } from '../karpenter/parse-document.ts';
import { toManifestError } from '../to-manifest-error.ts';

export const SCALE_TYPE = { apiVersion: 'autoscaling/v1', kind: 'Scale' } as const;

const spec = z.strictObject({ replicas: nonNegativeInt });

const scaleSchema = z.strictObject({
  apiVersion: z.literal(SCALE_TYPE.apiVersion),
  kind: z.literal(SCALE_TYPE.kind),
  metadata: z.looseObject({ name: z.string(), resourceVersion: z.string().optional() }),
  spec,
  status: z.looseObject({}).optional(),
});

const patchSchema = z.strictObject({ spec });

export interface Scale {
  readonly metadata: { readonly name: string; readonly resourceVersion?: string | undefined };
  readonly spec: { readonly replicas: number };
}

/** @throws ManifestError naming the field, e.g. `spec.replicas` */
export function parseScale(doc: unknown): Scale {
  return parseDocument(scaleSchema, SCALE_TYPE, doc);
}

/** A merge patch of a Scale: `{"spec": {"replicas": 3}}`. @throws ManifestError naming the field */
export function parseScalePatch(doc: unknown): number {
  const parsed = patchSchema.safeParse(doc);
  if (!parsed.success) throw toManifestError(parsed.error);
  return parsed.data.spec.replicas;
}

/** The ObjectMeta fields the mappers use: identity, labels, ownership and deletion. */
import * as z from 'zod';
import type { Labels } from '../../domain/label-selector.ts';
import { defined, flag, listOf, optional, stringMap, text, timestamp } from './schema.ts';

export const DEFAULT_NAMESPACE = 'default';

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels: Labels;
  readonly annotations: Labels;
  readonly creationTimestamp?: string;
  /** Kind of the owner reference marked `controller: true`. */
  readonly ownerKind?: string;
  /** `deletionTimestamp` is set: the object is being deleted. */
  readonly deleting: boolean;
  /** `metadata.finalizers`, when there are any. */
  readonly finalizers?: readonly string[];
}

const EMPTY_LABELS: Labels = Object.freeze({});

const ownerReference = z.object({ kind: text, controller: optional(flag) });

export const objectMeta = z
  .object({
    name: text,
    namespace: optional(text),
    uid: optional(text),
    labels: optional(stringMap),
    annotations: optional(stringMap),
    creationTimestamp: optional(timestamp),
    deletionTimestamp: z.unknown().optional(),
    ownerReferences: listOf(ownerReference),
    finalizers: listOf(text),
  })
  .transform(
    (meta): ObjectMeta =>
      defined({
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        labels: meta.labels ?? EMPTY_LABELS,
        annotations: meta.annotations ?? EMPTY_LABELS,
        creationTimestamp: meta.creationTimestamp,
        ownerKind: meta.ownerReferences?.find((owner) => owner.controller === true)?.kind,
        deleting: meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null,
        finalizers: meta.finalizers?.length ? meta.finalizers : undefined,
      }),
  );

/** Labels of a pod template, whose metadata has no name. */
export const templateMeta = optional(z.object({ labels: optional(stringMap) })).transform(
  (meta): Labels => meta?.labels ?? EMPTY_LABELS,
);

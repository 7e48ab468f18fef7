/** A core/v1 Pod object (YAML, JSON, or a `@kubernetes/client-node` V1Pod) as a domain Pod. */
import * as z from 'zod';
import type { Pod } from '../../domain/pod.ts';
import { type Condition, conditions } from './conditions.ts';
import { DEFAULT_NAMESPACE, objectMeta } from './metadata.ts';
import { EMPTY_POD_SPEC, podSpecShape, toPodSpec } from './pod-spec.ts';
import { defined, integer, listOrEmpty, optional, readWith, text } from './schema.ts';

/** kube-scheduler's verdict that no node fits the pod, which is what makes a pod Karpenter's business. */
function isUnschedulable(condition: Condition): boolean {
  return (
    condition.type === 'PodScheduled' &&
    condition.status === 'False' &&
    condition.reason === 'Unschedulable'
  );
}

/** When the condition of `type` last turned True, while it is True. */
function trueSince(all: readonly Condition[] | undefined, type: string): string | undefined {
  const condition = all?.find((c) => c.type === type);
  return condition?.status === 'True' ? (condition.lastTransitionTime ?? undefined) : undefined;
}

const containerStatuses = listOrEmpty(z.object({ restartCount: optional(integer) }));

function restartsOf(statuses: z.output<typeof containerStatuses> | undefined): number | undefined {
  const restarts = (statuses ?? []).reduce((sum, s) => sum + (s.restartCount ?? 0), 0);
  return restarts > 0 ? restarts : undefined;
}

const podSchema = z
  .object({
    metadata: objectMeta,
    spec: optional(z.object({ ...podSpecShape, nodeName: optional(text) })),
    status: optional(
      z.object({
        phase: optional(text),
        nominatedNodeName: optional(text),
        conditions,
        containerStatuses,
      }),
    ),
  })
  .transform(({ metadata: meta, spec, status }): Pod => {
    const namespace = meta.namespace ?? DEFAULT_NAMESPACE;
    return defined({
      // Objects written by hand have no uid; namespace/name is unique within a cluster as well.
      uid: meta.uid ?? `${namespace}/${meta.name}`,
      namespace,
      name: meta.name,
      labels: meta.labels,
      annotations: meta.annotations,
      creationTimestamp: meta.creationTimestamp,
      ownerKind: meta.ownerKind,
      deleting: meta.deleting,
      phase: status?.phase,
      nodeName: spec?.nodeName,
      nominatedNodeName: status?.nominatedNodeName,
      markedUnschedulable: status?.conditions.some(isUnschedulable) || undefined,
      scheduledAt: trueSince(status?.conditions, 'PodScheduled'),
      readyAt: trueSince(status?.conditions, 'Ready'),
      containerRestarts: restartsOf(status?.containerStatuses),
      spec: spec == null ? EMPTY_POD_SPEC : toPodSpec(spec),
    });
  });

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toPod(object: unknown): Pod {
  return readWith(podSchema, object);
}

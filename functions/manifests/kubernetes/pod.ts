/** A core/v1 Pod object (YAML, JSON, or a `@kubernetes/client-node` V1Pod) as a domain Pod. */
import type { Pod } from '../../domain/pod.ts';
import { type Condition, readConditions } from './conditions.ts';
import {
  asFields,
  defined,
  EMPTY_FIELDS,
  optionalFields,
  optionalString,
  SPEC,
  STATUS,
} from './fields.ts';
import { DEFAULT_NAMESPACE, readMetadata } from './metadata.ts';
import { readPodSpec } from './pod-spec.ts';

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toPod(object: unknown): Pod {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  const spec = optionalFields(fields, 'spec', undefined) ?? EMPTY_FIELDS;
  const status = optionalFields(fields, 'status', undefined) ?? EMPTY_FIELDS;
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
    phase: optionalString(status, 'phase', STATUS),
    nodeName: optionalString(spec, 'nodeName', SPEC),
    nominatedNodeName: optionalString(status, 'nominatedNodeName', STATUS),
    markedUnschedulable: readConditions(status, STATUS).some(isUnschedulable) || undefined,
    spec: readPodSpec(spec, SPEC),
  });
}

/** kube-scheduler's verdict that no node fits the pod, which is what makes a pod Karpenter's business. */
function isUnschedulable(condition: Condition): boolean {
  return (
    condition.type === 'PodScheduled' &&
    condition.status === 'False' &&
    condition.reason === 'Unschedulable'
  );
}

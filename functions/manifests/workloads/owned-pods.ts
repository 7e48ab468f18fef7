/**
 * The pods a workload already has, as its controller counts them: those it controls directly or
 * through its ReplicaSet (Deployment) or Job (CronJob), and orphans its selector matches, which
 * the controller adopts (pkg/controller/controller_ref_manager.go). Pods controlled by anything
 * else are never its own, whatever their labels.
 */
import { type LabelSelector, selectorMatches } from '../../domain/label-selector.ts';
import { labelSelector } from '../kubernetes/selectors.ts';
import { type ClusterIndex, type ExistingPod, objectKey } from './cluster-index.ts';
import type { ControllerRef } from './owner-reference.ts';
import { asObject, type PlainObject } from './plain-object.ts';

export interface WorkloadRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** Absent for Jobs and CronJobs, whose selectors the API server generates. */
  readonly selector?: LabelSelector;
}

/** The ReplicaSets and Jobs in between, and the names their controllers give them. */
const INTERMEDIATE: Readonly<Record<string, { readonly kind: string; readonly suffix: RegExp }>> = {
  Deployment: { kind: 'ReplicaSet', suffix: /^[a-z0-9]+$/ },
  CronJob: { kind: 'Job', suffix: /^[0-9]+$/ },
};

export function workloadRef(kind: string, namespace: string, workload: PlainObject): WorkloadRef {
  const name = String(asObject(workload.metadata).name);
  if (kind === 'Job' || kind === 'CronJob') return { kind, namespace, name };
  const selector = labelSelector.safeParse(asObject(workload.spec).selector);
  return selector.success
    ? { kind, namespace, name, selector: selector.data }
    : { kind, namespace, name };
}

/** Whether `child` (a ReplicaSet or Job) belongs to the workload: by its controller, else by its name. */
function throughIntermediate(index: ClusterIndex, workload: WorkloadRef, child: ControllerRef) {
  const between = INTERMEDIATE[workload.kind];
  if (between === undefined || child.kind !== between.kind) return false;
  const key = objectKey(workload.namespace, child.kind, child.name);
  if (index.parents.has(key)) {
    const parent = index.parents.get(key);
    return parent?.kind === workload.kind && parent.name === workload.name;
  }
  const prefix = `${workload.name}-`;
  return child.name.startsWith(prefix) && between.suffix.test(child.name.slice(prefix.length));
}

function owns(index: ClusterIndex, workload: WorkloadRef, pod: ExistingPod): boolean {
  if (pod.namespace !== workload.namespace) return false;
  const { controller } = pod;
  if (controller === undefined) return selectorMatches(workload.selector, pod.labels);
  if (controller.kind === workload.kind && controller.name === workload.name) return true;
  return throughIntermediate(index, workload, controller);
}

export function ownedPods(index: ClusterIndex, workload: WorkloadRef): ExistingPod[] {
  return index.pods.filter((pod) => owns(index, workload, pod));
}

/** Running or about to: what counts against replicas (Succeeded and Failed pods do not). */
export function isActive(pod: ExistingPod): boolean {
  return pod.phase !== 'Succeeded' && pod.phase !== 'Failed';
}

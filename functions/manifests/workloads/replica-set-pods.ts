/**
 * Deployments and ReplicaSets: `replicas` pods (1 when unset) from the template, less those the
 * workload already has. A Deployment's pods carry its ReplicaSet's `pod-template-hash`.
 */
import type { ClusterIndex } from './cluster-index.ts';
import type { NameSuffix } from './name-suffix.ts';
import { isActive, ownedPods, workloadRef } from './owned-pods.ts';
import { ownerReference } from './owner-reference.ts';
import { asObject, nameOf, namespaceOf, type PlainObject, podCount } from './plain-object.ts';
import { podFromTemplate } from './pod-template.ts';
import { TEMPLATE_PATH, type WorkloadObjects } from './workload-objects.ts';

function missingReplicas(kind: string, workload: PlainObject, index: ClusterIndex): number {
  const ref = workloadRef(kind, namespaceOf(workload), workload);
  const existing = ownedPods(index, ref).filter(isActive).length;
  return Math.max(0, podCount(asObject(workload.spec), 'replicas', 1) - existing);
}

function stamped(
  workload: PlainObject,
  replicaSet: string,
  owner: PlainObject,
  labels: PlainObject,
  suffix: NameSuffix,
) {
  const template = asObject(asObject(workload.spec).template);
  return podFromTemplate(workload, template, {
    name: `${replicaSet}-${suffix(5)}`,
    owner,
    labels,
  });
}

export function deploymentPods(
  workload: PlainObject,
  index: ClusterIndex,
  suffix: NameSuffix,
): WorkloadObjects {
  const missing = missingReplicas('Deployment', workload, index);
  const hash = missing > 0 ? suffix(10) : '';
  const replicaSet = `${nameOf(workload)}-${hash}`;
  const owner = ownerReference('apps/v1', 'ReplicaSet', replicaSet);
  const labels = { 'pod-template-hash': hash };
  const pods = Array.from({ length: missing }, () =>
    stamped(workload, replicaSet, owner, labels, suffix),
  );
  return { pods, persistentVolumeClaims: [], templatePath: TEMPLATE_PATH };
}

export function replicaSetPods(
  workload: PlainObject,
  index: ClusterIndex,
  suffix: NameSuffix,
): WorkloadObjects {
  const missing = missingReplicas('ReplicaSet', workload, index);
  const name = nameOf(workload);
  const owner = ownerReference('apps/v1', 'ReplicaSet', name);
  const pods = Array.from({ length: missing }, () => stamped(workload, name, owner, {}, suffix));
  return { pods, persistentVolumeClaims: [], templatePath: TEMPLATE_PATH };
}

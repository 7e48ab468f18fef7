/**
 * Where a pod's volumes allow it to run. A bound claim follows its PersistentVolume's node
 * affinity; an unbound one its StorageClass's allowed topologies (core:
 * pkg/controllers/provisioning/scheduling/volumetopology.go). The first term of each is used,
 * as Karpenter does.
 */

import { Label } from '../labels.ts';
import type { Pod } from '../pod.ts';
import { requirement } from '../requirements/requirement.ts';
import {
  add,
  fromNodeSelector,
  NO_REQUIREMENTS,
  type Requirements,
  requirementsOf,
} from '../requirements/requirements.ts';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../volumes.ts';

export interface VolumeCatalog {
  readonly claims: ReadonlyMap<string, PersistentVolumeClaim>;
  readonly volumes: ReadonlyMap<string, PersistentVolume>;
  readonly storageClasses: ReadonlyMap<string, StorageClass>;
  /**
   * The class the DefaultStorageClass admission plugin gives a claim created without one (the
   * first of several defaults here; Kubernetes takes the newest).
   */
  readonly defaultStorageClass?: StorageClass;
}

export type VolumeTopology =
  | { readonly ok: true; readonly requirements: Requirements }
  | { readonly ok: false; readonly reason: string };

export function volumeCatalog(
  claims: readonly PersistentVolumeClaim[],
  volumes: readonly PersistentVolume[],
  storageClasses: readonly StorageClass[],
): VolumeCatalog {
  const defaultStorageClass = storageClasses.find((s) => s.isDefault === true);
  return {
    claims: new Map(claims.map((c) => [`${c.namespace}/${c.name}`, c])),
    volumes: new Map(volumes.map((v) => [v.name, v])),
    storageClasses: new Map(storageClasses.map((s) => [s.name, s])),
    ...(defaultStorageClass === undefined ? {} : { defaultStorageClass }),
  };
}

function claimRequirements(catalog: VolumeCatalog, claim: PersistentVolumeClaim): VolumeTopology {
  if (claim.volumeName) {
    const volume = catalog.volumes.get(claim.volumeName);
    if (volume === undefined)
      return { ok: false, reason: `persistentvolume "${claim.volumeName}" not found` };
    const term = volume.nodeAffinity?.required?.nodeSelectorTerms[0];
    // A node-local volume pins a hostname that a new node can never have; Karpenter drops it.
    const expressions = (term?.matchExpressions ?? []).filter((e) => e.key !== Label.hostname);
    return { ok: true, requirements: fromNodeSelector(expressions) };
  }
  // A claim written without a class is given the default one when it is created; an empty
  // class asks for none.
  const className = claim.storageClassName ?? catalog.defaultStorageClass?.name;
  if (!className) {
    return {
      ok: false,
      reason: `unbound persistentvolumeclaim "${claim.name}" has no storage class`,
    };
  }
  const storageClass = catalog.storageClasses.get(className);
  if (storageClass === undefined) {
    return { ok: false, reason: `storageclass "${className}" not found` };
  }
  const expressions = storageClass.allowedTopologies?.[0]?.matchLabelExpressions ?? [];
  return {
    ok: true,
    requirements: requirementsOf(expressions.map((e) => requirement(e.key, 'In', e.values))),
  };
}

function claimOf(catalog: VolumeCatalog, pod: Pod, volume: Pod['spec']['volumes'][number]) {
  if (volume.persistentVolumeClaim) {
    return (
      catalog.claims.get(`${pod.namespace}/${volume.persistentVolumeClaim.claimName}`) ?? {
        missing: volume.persistentVolumeClaim.claimName,
      }
    );
  }
  if (volume.ephemeral) {
    // The ephemeral controller names the claim after the pod and volume; before it exists
    // the volume follows the template's storage class.
    const name = `${pod.name}-${volume.name}`;
    const existing = catalog.claims.get(`${pod.namespace}/${name}`);
    if (existing !== undefined) return existing;
    // Without a class in the template the claim gets the cluster's default, if there is one.
    const storageClassName = volume.ephemeral.storageClassName ?? catalog.defaultStorageClass?.name;
    if (storageClassName === undefined) return undefined;
    return { namespace: pod.namespace, name, storageClassName };
  }
  return undefined;
}

export function volumeTopology(catalog: VolumeCatalog, pod: Pod): VolumeTopology {
  let requirements = NO_REQUIREMENTS;
  for (const volume of pod.spec.volumes) {
    const claim = claimOf(catalog, pod, volume);
    if (claim === undefined) continue;
    if ('missing' in claim) {
      return { ok: false, reason: `persistentvolumeclaim "${claim.missing}" not found` };
    }
    const result = claimRequirements(catalog, claim);
    if (!result.ok) return result;
    requirements = add(requirements, result.requirements);
  }
  return { ok: true, requirements };
}

/**
 * StatefulSets as their controller makes them (pkg/controller/statefulset/stateful_set_utils.go):
 * pod `<set>-<ordinal>` for each ordinal not already in the files, each volume claim template
 * becoming claim `<template>-<set>-<ordinal>` (unless the files hold it) that replaces any
 * template volume of the same name, as updateStorage does.
 */
import type { ClusterIndex } from './cluster-index.ts';
import { ownerReference } from './owner-reference.ts';
import {
  asList,
  asObject,
  count,
  nameOf,
  namespaceOf,
  type PlainObject,
  podCount,
} from './plain-object.ts';
import { podFromTemplate } from './pod-template.ts';
import { TEMPLATE_PATH, type WorkloadObjects } from './workload-objects.ts';

interface Claim {
  readonly volume: string;
  readonly object: PlainObject;
}

/** The claim as getPersistentVolumeClaims builds it: the template, renamed, with the selector's labels. */
function claimFor(workload: PlainObject, template: PlainObject, ordinal: number): Claim {
  const meta = asObject(template.metadata);
  const volume = String(meta.name);
  const selectorLabels = asObject(asObject(asObject(workload.spec).selector).matchLabels);
  const object = {
    metadata: {
      ...meta,
      name: `${volume}-${nameOf(workload)}-${ordinal}`,
      namespace: namespaceOf(workload),
      labels: { ...asObject(meta.labels), ...selectorLabels },
    },
    spec: asObject(template.spec),
    status: { phase: 'Pending' },
  };
  return { volume, object };
}

/** The claims first, then the template's volumes no claim replaces. */
function volumesWith(templateVolumes: unknown[], claims: readonly Claim[]): unknown[] {
  const claimed = new Set(claims.map((c) => c.volume));
  return [
    ...claims.map((c) => ({
      name: c.volume,
      persistentVolumeClaim: { claimName: asObject(c.object.metadata).name },
    })),
    ...templateVolumes.filter((v) => !claimed.has(String(asObject(v).name))),
  ];
}

function ordinals(spec: PlainObject): number[] {
  const start = count(asObject(spec.ordinals).start, 0);
  return Array.from({ length: podCount(spec, 'replicas', 1) }, (_, i) => start + i);
}

export function statefulSetPods(workload: PlainObject, index: ClusterIndex): WorkloadObjects {
  const name = nameOf(workload);
  const namespace = namespaceOf(workload);
  const spec = asObject(workload.spec);
  const template = asObject(spec.template);
  const owner = ownerReference('apps/v1', 'StatefulSet', name);
  const existing = new Set(index.pods.map((p) => `${p.namespace}/${p.name}`));
  const out = { pods: [] as PlainObject[], persistentVolumeClaims: [] as PlainObject[] };
  for (const ordinal of ordinals(spec)) {
    const podName = `${name}-${ordinal}`;
    const claims = asList(spec.volumeClaimTemplates).map((t) =>
      claimFor(workload, asObject(t), ordinal),
    );
    for (const { object } of claims) {
      if (!index.claims.has(`${namespace}/${asObject(object.metadata).name}`))
        out.persistentVolumeClaims.push(object);
    }
    if (existing.has(`${namespace}/${podName}`)) continue;
    const volumes = volumesWith(asList(asObject(template.spec).volumes), claims);
    out.pods.push(
      podFromTemplate(workload, template, {
        name: podName,
        owner,
        labels: { 'statefulset.kubernetes.io/pod-name': podName },
        ...(volumes.length > 0 ? { spec: { volumes } } : {}),
      }),
    );
  }
  return { ...out, templatePath: TEMPLATE_PATH };
}

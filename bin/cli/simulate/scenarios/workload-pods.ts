/**
 * The pods a Deployment, StatefulSet or Job of the user's files stands for, as their controllers
 * would create them: the template's labels and spec, an owner reference, and for StatefulSets
 * one PersistentVolumeClaim per volume claim template and replica.
 */
import type { JsonObject } from '../../../../functions/adapters/simulated/api-server/json.ts';
import type { Random } from './random.ts';

const SUFFIX = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SUFFIX[Math.floor(random() * SUFFIX.length)];
  return out;
}

export interface WorkloadObjects {
  readonly pods: JsonObject[];
  readonly persistentVolumeClaims: JsonObject[];
}

const asObject = (value: unknown): JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};

function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

function podFrom(
  workload: JsonObject,
  name: string,
  owner: JsonObject,
  extra: JsonObject = {},
): JsonObject {
  const metadata = asObject(workload.metadata);
  const template = asObject(asObject(workload.spec).template);
  const templateMeta = asObject(template.metadata);
  return {
    metadata: {
      name,
      namespace: metadata.namespace ?? 'default',
      labels: { ...asObject(templateMeta.labels), ...asObject(extra.labels) },
      ...(templateMeta.annotations ? { annotations: templateMeta.annotations } : {}),
      ownerReferences: [{ controller: true, blockOwnerDeletion: true, ...owner }],
    },
    spec: { ...asObject(template.spec), ...asObject(extra.spec) },
    status: { phase: 'Pending' },
  };
}

function deployment(workload: JsonObject, random: Random): WorkloadObjects {
  const name = String(asObject(workload.metadata).name);
  const hash = suffix(random, 10);
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-${hash}` };
  const replicas = count(asObject(workload.spec).replicas, 1);
  const pods = Array.from({ length: replicas }, () =>
    podFrom(workload, `${name}-${hash}-${suffix(random, 5)}`, owner, {
      labels: { 'pod-template-hash': hash },
    }),
  );
  return { pods, persistentVolumeClaims: [] };
}

function statefulSet(workload: JsonObject): WorkloadObjects {
  const metadata = asObject(workload.metadata);
  const name = String(metadata.name);
  const spec = asObject(workload.spec);
  const templates = Array.isArray(spec.volumeClaimTemplates)
    ? spec.volumeClaimTemplates.map(asObject)
    : [];
  const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name };
  const out: WorkloadObjects = { pods: [], persistentVolumeClaims: [] };
  const podSpec = asObject(asObject(spec.template).spec);
  for (let i = 0; i < count(spec.replicas, 1); i++) {
    const claims = templates.map((t) => ({
      volume: String(asObject(t.metadata).name),
      claimName: `${String(asObject(t.metadata).name)}-${name}-${i}`,
      spec: t.spec,
    }));
    for (const claim of claims) {
      out.persistentVolumeClaims.push({
        metadata: { name: claim.claimName, namespace: metadata.namespace ?? 'default' },
        spec: claim.spec ?? {},
        status: { phase: 'Pending' },
      });
    }
    const volumes = [
      ...(Array.isArray(podSpec.volumes) ? podSpec.volumes : []),
      ...claims.map((c) => ({ name: c.volume, persistentVolumeClaim: { claimName: c.claimName } })),
    ];
    out.pods.push(
      podFrom(workload, `${name}-${i}`, owner, {
        labels: { 'statefulset.kubernetes.io/pod-name': `${name}-${i}` },
        spec: volumes.length > 0 ? { volumes } : {},
      }),
    );
  }
  return out;
}

function job(workload: JsonObject, random: Random): WorkloadObjects {
  const name = String(asObject(workload.metadata).name);
  const spec = asObject(workload.spec);
  const parallel = Math.min(
    count(spec.parallelism, 1),
    count(spec.completions, Number.MAX_SAFE_INTEGER),
  );
  const owner = { apiVersion: 'batch/v1', kind: 'Job', name };
  const pods = Array.from({ length: parallel }, () =>
    podFrom(workload, `${name}-${suffix(random, 5)}`, owner, { labels: { 'job-name': name } }),
  );
  return { pods, persistentVolumeClaims: [] };
}

/** The objects a workload's controller would create, or none for other kinds. */
export function workloadObjects(
  apiVersion: string,
  kind: string,
  workload: JsonObject,
  random: Random,
): WorkloadObjects {
  if (apiVersion === 'apps/v1' && kind === 'Deployment') return deployment(workload, random);
  if (apiVersion === 'apps/v1' && kind === 'StatefulSet') return statefulSet(workload);
  if (apiVersion === 'batch/v1' && kind === 'Job') return job(workload, random);
  return { pods: [], persistentVolumeClaims: [] };
}

/**
 * Jobs and CronJobs. A Job runs `parallelism` pods at once (1 when unset), no more than the
 * completions still to come, less the pods already active (pkg/controller/job). A CronJob stands
 * for one run of its Job template, the capacity each run needs, unless it is suspended or the
 * files hold its Jobs, which count instead.
 */
import type { ClusterIndex } from './cluster-index.ts';
import type { NameSuffix } from './name-suffix.ts';
import { isActive, ownedPods, workloadRef } from './owned-pods.ts';
import { ownerReference } from './owner-reference.ts';
import {
  asObject,
  count,
  nameOf,
  namespaceOf,
  type PlainObject,
  podCount,
} from './plain-object.ts';
import { podFromTemplate } from './pod-template.ts';
import { NOTHING, TEMPLATE_PATH, type WorkloadObjects } from './workload-objects.ts';

const CRON_TEMPLATE_PATH = ['spec', 'jobTemplate', 'spec', 'template'];

function podsToRun(jobSpec: PlainObject, owned: ReturnType<typeof ownedPods>): number {
  const succeeded = owned.filter((p) => p.phase === 'Succeeded').length;
  const active = owned.filter(isActive).length;
  const completions = count(jobSpec.completions, Number.MAX_SAFE_INTEGER);
  const wanted = Math.min(
    podCount(jobSpec, 'parallelism', 1),
    Math.max(0, completions - succeeded),
  );
  return Math.max(0, wanted - active);
}

function runOf(
  workload: PlainObject,
  jobSpec: PlainObject,
  job: { readonly name: string; readonly missing: number },
  suffix: NameSuffix,
): PlainObject[] {
  const owner = ownerReference('batch/v1', 'Job', job.name);
  const labels = { 'job-name': job.name, 'batch.kubernetes.io/job-name': job.name };
  const template = asObject(jobSpec.template);
  return Array.from({ length: job.missing }, () =>
    podFromTemplate(workload, template, { name: `${job.name}-${suffix(5)}`, owner, labels }),
  );
}

export function jobPods(
  workload: PlainObject,
  index: ClusterIndex,
  suffix: NameSuffix,
): WorkloadObjects {
  const spec = asObject(workload.spec);
  const owned = ownedPods(index, workloadRef('Job', namespaceOf(workload), workload));
  const job = { name: nameOf(workload), missing: podsToRun(spec, owned) };
  const pods = runOf(workload, spec, job, suffix);
  return { pods, persistentVolumeClaims: [], templatePath: TEMPLATE_PATH };
}

export function cronJobPods(
  workload: PlainObject,
  index: ClusterIndex,
  suffix: NameSuffix,
): WorkloadObjects {
  const spec = asObject(workload.spec);
  const namespace = namespaceOf(workload);
  const name = nameOf(workload);
  const hasJobs = [...index.parents].some(
    ([key, parent]) =>
      key.startsWith(`${namespace}/Job/`) && parent?.kind === 'CronJob' && parent.name === name,
  );
  if (spec.suspend === true || hasJobs) return NOTHING;
  const jobSpec = asObject(asObject(spec.jobTemplate).spec);
  const owned = ownedPods(index, workloadRef('CronJob', namespace, workload));
  const job = { name: `${name}-${suffix(8)}`, missing: podsToRun(jobSpec, owned) };
  const pods = runOf(workload, jobSpec, job, suffix);
  return { pods, persistentVolumeClaims: [], templatePath: CRON_TEMPLATE_PATH };
}

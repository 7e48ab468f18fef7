/**
 * What a pod created over the API gains before it is stored: the v1 defaults
 * (`pkg/apis/core/v1/defaults.go`), the admission plugins every cluster runs
 * (DefaultTolerationSeconds, Priority) and the status the strategy resets to (Pending, with its
 * QoS class). ServiceAccount admission (the token volume) is not modelled.
 */

import {
  arrayAt,
  childObject,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  objectAt,
  stringAt,
} from '../json.ts';
import { quantityValue } from '../quantity.ts';

function imagePullPolicy(image: string): string {
  const lastSegment = image.split('/').pop() ?? image;
  if (image.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.split(':').pop() : undefined;
  return tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** Requests default to limits for every resource that has a limit but no request. */
function defaultRequests(container: JsonObject): void {
  const resources = childObject(container, 'resources');
  const limits = objectAt(resources, 'limits');
  if (limits === undefined) return;
  const requests = childObject(resources, 'requests');
  for (const [name, limit] of Object.entries(limits)) requests[name] ??= limit;
}

function defaultContainer(container: JsonValue): void {
  if (!isJsonObject(container)) return;
  container.terminationMessagePath ??= '/dev/termination-log';
  container.terminationMessagePolicy ??= 'File';
  container.imagePullPolicy ??= imagePullPolicy(stringAt(container, 'image') ?? '');
  defaultRequests(container);
}

const NO_EXECUTE_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

function tolerates(tolerations: readonly JsonValue[], key: string): boolean {
  return tolerations.some(
    (t) =>
      isJsonObject(t) &&
      (t.key === key || t.key === undefined || t.key === '') &&
      (t.effect === 'NoExecute' || t.effect === undefined || t.effect === ''),
  );
}

/** DefaultTolerationSeconds admission: tolerate not-ready and unreachable for 300 s. */
function defaultTolerations(spec: JsonObject): void {
  const tolerations = arrayAt(spec, 'tolerations');
  for (const key of NO_EXECUTE_TAINTS) {
    if (tolerates(tolerations, key)) continue;
    tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tolerations;
}

const SYSTEM_PRIORITIES: Readonly<Record<string, number>> = {
  'system-node-critical': 2_000_001_000,
  'system-cluster-critical': 2_000_000_000,
};

/** Priority admission, for the built-in classes; any other class name resolves to 0 here. */
function defaultPriority(spec: JsonObject): void {
  spec.priority ??= SYSTEM_PRIORITIES[stringAt(spec, 'priorityClassName') ?? ''] ?? 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
}

/** Defaults on a pod spec (also a pod template's spec). */
export function defaultPodSpec(spec: JsonObject): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  for (const field of ['containers', 'initContainers'])
    arrayAt(spec, field).forEach(defaultContainer);
}

function positiveQuantities(resources: JsonObject | undefined): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of Object.entries(resources ?? {})) {
    const amount =
      typeof value === 'string' || typeof value === 'number' ? quantityValue(value) : undefined;
    if ((name === 'cpu' || name === 'memory') && (amount ?? 0) > 0) names.add(name);
  }
  return names;
}

function sameAmount(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const read = (v: JsonValue | undefined) =>
    typeof v === 'string' || typeof v === 'number' ? quantityValue(v) : undefined;
  return read(a) !== undefined && read(a) === read(b);
}

function containerIsGuaranteed(container: JsonObject): boolean {
  const requests = objectAt(container, 'resources.requests') ?? {};
  const limits = objectAt(container, 'resources.limits') ?? {};
  return ['cpu', 'memory'].every((name) => sameAmount(requests[name], limits[name]));
}

/** `qos.GetPodQOS` over cpu and memory. */
export function qosClass(spec: JsonObject): string {
  const containers = [...arrayAt(spec, 'containers'), ...arrayAt(spec, 'initContainers')].filter(
    isJsonObject,
  );
  const anySet = containers.some(
    (c) =>
      positiveQuantities(objectAt(c, 'resources.requests')).size > 0 ||
      positiveQuantities(objectAt(c, 'resources.limits')).size > 0,
  );
  if (!anySet) return 'BestEffort';
  return containers.every(containerIsGuaranteed) ? 'Guaranteed' : 'Burstable';
}

/** The v1 defaults every decoded pod gets. */
export function defaultPod(pod: JsonObject): void {
  defaultPodSpec(childObject(pod, 'spec'));
}

/** Admission and the status reset a pod created over the API gets after its defaults. */
export function preparePodForCreate(pod: JsonObject): void {
  const spec = childObject(pod, 'spec');
  defaultTolerations(spec);
  defaultPriority(spec);
  pod.status = { phase: 'Pending', qosClass: qosClass(spec) };
}

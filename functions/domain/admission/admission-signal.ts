/**
 * Which admission requests should bring the next controller pass sooner: a pod created without a
 * node, a pod kube-scheduler has just marked `PodScheduled=False/Unschedulable`, a node deleted.
 * The webhook configuration (deploy/wake-webhook.yaml) already narrows the calls to these; the
 * relay checks again because anyone holding the URL may call it, and a call that is none of them
 * wakes nothing.
 */
import { setsUnschedulable, type WakeSignal } from '../audit/wake-signals.ts';
import type { AdmissionRequest } from './admission-request.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A pod with no `spec.nodeName` waits for kube-scheduler. */
function unbound(pod: unknown): boolean {
  if (!isRecord(pod)) return false;
  const spec = pod.spec;
  return !isRecord(spec) || spec.nodeName === undefined || spec.nodeName === '';
}

function podSignal(request: AdmissionRequest): WakeSignal | undefined {
  const { operation, subResource, object, oldObject } = request;
  if (operation === 'CREATE' && subResource === undefined) {
    return unbound(object) ? 'pod created' : undefined;
  }
  const newlyUnschedulable = setsUnschedulable(object) && !setsUnschedulable(oldObject);
  return operation === 'UPDATE' && subResource === 'status' && newlyUnschedulable
    ? 'pod unschedulable'
    : undefined;
}

export function admissionSignal(request: AdmissionRequest): WakeSignal | undefined {
  if (request.resource === 'pods') return podSignal(request);
  const nodeDeleted =
    request.resource === 'nodes' &&
    request.operation === 'DELETE' &&
    request.subResource === undefined;
  return nodeDeleted ? 'node deleted' : undefined;
}

/**
 * `POST pods/{name}/binding`, as the scheduler binds: the pod gets `spec.nodeName`, the binding's
 * annotations and a PodScheduled=True condition. A pod that is deleting, already bound or gated
 * is a 409 on `pods/binding`; a binding without a target is the 500 the real server answers with
 * (its validation error is not a Status). The node is not required to exist.
 */

import { decodeObject } from '../decode.ts';
import { aggregateMessage, type FieldError, notSupported, required } from '../field-errors.ts';
import {
  arrayAt,
  childObject,
  isJsonObject,
  type JsonObject,
  stringAt,
  stringMapAt,
} from '../json.ts';
import {
  formatTimestamp,
  isDeleting,
  metadataOf,
  nameOf,
  resourceVersionOf,
  uidOf,
} from '../object-meta.ts';
import { type Registry, requireStored } from '../registry/context.ts';
import { checkPreconditions } from '../registry/deletion.ts';
import { pods } from '../resources/pods.ts';
import { badRequest, conflict, success, unclassified } from '../status-errors.ts';

const BINDING = { group: '', resource: 'pods/binding' };

function validateBinding(binding: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const kind = stringAt(binding, 'target.kind') ?? '';
  if (kind !== '' && kind !== 'Node') errors.push(notSupported('target.kind', kind, ['Node']));
  if ((stringAt(binding, 'target.name') ?? '') === '') errors.push(required('target.name'));
  return errors;
}

function refuseUnbindable(pod: JsonObject, name: string): void {
  const node = stringAt(pod, 'spec.nodeName') ?? '';
  const reason = isDeleting(pod)
    ? `pod ${name} is being deleted, cannot be assigned to a host`
    : node !== ''
      ? `pod ${name} is already assigned to node ${JSON.stringify(node)}`
      : arrayAt(pod, 'spec.schedulingGates').length > 0
        ? `pod ${name} has non-empty .spec.schedulingGates`
        : undefined;
  if (reason !== undefined) throw conflict(BINDING, name, reason);
}

/** `podutil.UpdatePodCondition` with PodScheduled=True: the transition time moves only on change. */
function markScheduled(pod: JsonObject, now: Date): void {
  const status = childObject(pod, 'status');
  const conditions = arrayAt(pod, 'status.conditions');
  const index = conditions.findIndex((c) => isJsonObject(c) && c.type === 'PodScheduled');
  const previous = conditions[index];
  const unchanged = isJsonObject(previous) && previous.status === 'True';
  const condition: JsonObject = {
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: unchanged
      ? (previous.lastTransitionTime ?? formatTimestamp(now))
      : formatTimestamp(now),
  };
  if (index >= 0) conditions[index] = condition;
  else conditions.push(condition);
  status.conditions = conditions;
}

export function bindPod(
  registry: Registry,
  namespace: string,
  name: string,
  body: string,
): JsonObject {
  const binding = decodeObject(body, { kind: 'Binding', apiVersions: ['v1'] });
  if (nameOf(binding) !== name)
    throw badRequest('name in URL does not match name in Binding object');
  const errors = validateBinding(binding);
  if (errors.length > 0) throw unclassified(aggregateMessage(errors));
  const pod = requireStored(registry, pods, name, namespace);
  // The binding's uid and resourceVersion, when given, are preconditions on the pod.
  const uid = uidOf(binding);
  const resourceVersion = resourceVersionOf(binding);
  checkPreconditions(pods, pod, {
    ...(uid === '' ? {} : { uid }),
    ...(resourceVersion === '' ? {} : { resourceVersion }),
  });
  refuseUnbindable(pod, name);
  childObject(pod, 'spec').nodeName = stringAt(binding, 'target.name') ?? '';
  const annotations = stringMapAt(binding, 'metadata.annotations');
  if (Object.keys(annotations).length > 0) {
    const metadata = metadataOf(pod);
    metadata.annotations = { ...stringMapAt(pod, 'metadata.annotations'), ...annotations };
  }
  markScheduled(pod, registry.now());
  registry.store.update('pods', pod);
  return success(201);
}

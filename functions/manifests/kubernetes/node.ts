/** A core/v1 Node object as a domain Node. */
import type { Node } from '../../domain/node.ts';
import { EMPTY } from '../../domain/resources.ts';
import { readConditions } from './conditions.ts';
import {
  asFields,
  defined,
  EMPTY_FIELDS,
  list,
  optionalBoolean,
  optionalFields,
  optionalString,
  SPEC,
  STATUS,
} from './fields.ts';
import { readMetadata } from './metadata.ts';
import { optionalResources } from './resource-list.ts';
import { readTaint } from './taints.ts';

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toNode(object: unknown): Node {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  const spec = optionalFields(fields, 'spec', undefined) ?? EMPTY_FIELDS;
  const status = optionalFields(fields, 'status', undefined) ?? EMPTY_FIELDS;
  const capacity = optionalResources(status, 'capacity', STATUS) ?? EMPTY;
  return defined({
    name: meta.name,
    labels: meta.labels,
    annotations: meta.annotations,
    taints: list(spec, 'taints', SPEC, readTaint),
    unschedulable: optionalBoolean(spec, 'unschedulable', SPEC) ?? false,
    providerID: optionalString(spec, 'providerID', SPEC),
    capacity,
    // The kubelet reports both; a hand-written Node with capacity only has it all allocatable.
    allocatable: optionalResources(status, 'allocatable', STATUS) ?? capacity,
    ready: readConditions(status, STATUS).some((c) => c.type === 'Ready' && c.status === 'True'),
    deleting: meta.deleting,
    creationTimestamp: meta.creationTimestamp,
  });
}

/** A core/v1 Node object as a domain Node. */
import * as z from 'zod';
import type { Node, NodeCondition } from '../../domain/node.ts';
import { EMPTY } from '../../domain/resources.ts';
import { type Condition, conditions } from './conditions.ts';
import { objectMeta } from './metadata.ts';
import { resources } from './resource-list.ts';
import { defined, flag, listOrEmpty, optional, readWith, text } from './schema.ts';
import { taint } from './taints.ts';

const nodeSchema = z
  .object({
    metadata: objectMeta,
    spec: optional(
      z.object({
        taints: listOrEmpty(taint),
        unschedulable: optional(flag),
        providerID: optional(text),
      }),
    ),
    status: optional(z.object({ capacity: resources, allocatable: resources, conditions })),
  })
  .transform(({ metadata: meta, spec, status }): Node => {
    const capacity = status?.capacity ?? EMPTY;
    const conditions = status?.conditions ?? [];
    return defined({
      name: meta.name,
      labels: meta.labels,
      annotations: meta.annotations,
      taints: spec?.taints ?? [],
      unschedulable: spec?.unschedulable ?? false,
      providerID: spec?.providerID,
      capacity,
      // The kubelet reports both; a hand-written Node with capacity only has it all allocatable.
      allocatable: status?.allocatable ?? capacity,
      ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
      conditions: conditions.length === 0 ? undefined : conditions.map(nodeCondition),
      deleting: meta.deleting,
      finalizers: meta.finalizers,
      creationTimestamp: meta.creationTimestamp,
    });
  });

function nodeCondition(condition: Condition): NodeCondition {
  return defined({
    type: condition.type,
    status: condition.status,
    lastTransitionTime: condition.lastTransitionTime,
  });
}

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toNode(object: unknown): Node {
  return readWith(nodeSchema, object);
}

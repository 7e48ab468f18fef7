/** A PodSpec (of a Pod or a DaemonSet's template), reduced to what placement depends on. */
import * as z from 'zod';
import type { PodSpec } from '../../domain/pod.ts';
import { affinity } from './affinity.ts';
import { container, initContainer } from './containers.ts';
import { podVolume } from './pod-volumes.ts';
import { resources } from './resource-list.ts';
import { defined, integer, listOf, listOrEmpty, optional, stringMap, text } from './schema.ts';
import { toleration } from './taints.ts';
import { topologySpreadConstraint } from './topology-spread.ts';

/** The PodSpec fields placement reads; a Pod's reader adds `nodeName` to them. */
export const podSpecShape = {
  containers: listOrEmpty(container),
  initContainers: listOrEmpty(initContainer),
  overhead: resources,
  nodeSelector: optional(stringMap),
  affinity: optional(affinity),
  tolerations: listOrEmpty(toleration),
  topologySpreadConstraints: listOrEmpty(topologySpreadConstraint),
  volumes: listOrEmpty(podVolume),
  runtimeClassName: optional(text),
  priority: optional(integer),
  terminationGracePeriodSeconds: optional(integer),
  resourceClaims: listOf(z.unknown().optional()),
};

type ParsedSpec = z.output<z.ZodObject<typeof podSpecShape>>;

export const EMPTY_POD_SPEC: PodSpec = {
  containers: [],
  initContainers: [],
  tolerations: [],
  topologySpreadConstraints: [],
  volumes: [],
};

/** Pods with dynamic resource claims need devices the planner cannot see; only their number is kept. */
export function toPodSpec({ resourceClaims, ...spec }: ParsedSpec): PodSpec {
  const count = resourceClaims?.length ?? 0;
  return defined({ ...spec, resourceClaimCount: count === 0 ? undefined : count });
}

/** A spec that may be left out: absent reads as empty. */
export const podSpec = optional(z.object(podSpecShape).transform(toPodSpec)).transform(
  (spec): PodSpec => spec ?? EMPTY_POD_SPEC,
);

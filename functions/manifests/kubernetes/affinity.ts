/** Pod affinity, anti-affinity and node affinity, mapped intact (every field the API defines for them). */
import * as z from 'zod';
import type { Affinity, NodeAffinity, PodAffinity, PodAffinityTerm } from '../../domain/pod.ts';
import { defined, integer, listOf, optional, text } from './schema.ts';
import { labelSelector, nodeSelector, nodeSelectorTerm } from './selectors.ts';

const podAffinityTerm = z
  .object({
    labelSelector: optional(labelSelector),
    namespaces: listOf(text),
    namespaceSelector: optional(labelSelector),
    topologyKey: text,
    matchLabelKeys: listOf(text),
    mismatchLabelKeys: listOf(text),
  })
  .transform((term): PodAffinityTerm => defined(term));

const podAffinity = z
  .object({
    requiredDuringSchedulingIgnoredDuringExecution: listOf(podAffinityTerm),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(
      z.object({ weight: integer, podAffinityTerm }),
    ),
  })
  .transform((affinity): PodAffinity => defined(affinity));

const nodeAffinity = z
  .object({
    requiredDuringSchedulingIgnoredDuringExecution: optional(nodeSelector),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(
      z.object({ weight: integer, preference: nodeSelectorTerm }),
    ),
  })
  .transform((affinity): NodeAffinity => defined(affinity));

export const affinity = z
  .object({
    nodeAffinity: optional(nodeAffinity),
    podAffinity: optional(podAffinity),
    podAntiAffinity: optional(podAffinity),
  })
  .transform((a): Affinity => defined(a));

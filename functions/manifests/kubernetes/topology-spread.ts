/** Topology spread constraints, with the enumerations the API server enforces. */
import * as z from 'zod';
import type { TopologySpreadConstraint } from '../../domain/pod.ts';
import { defined, integer, listOf, oneOf, optional, text } from './schema.ts';
import { labelSelector } from './selectors.ts';

const POLICIES = ['Honor', 'Ignore'] as const;

export const topologySpreadConstraint = z
  .object({
    maxSkew: integer,
    topologyKey: text,
    whenUnsatisfiable: oneOf(['DoNotSchedule', 'ScheduleAnyway']),
    labelSelector: optional(labelSelector),
    minDomains: optional(integer),
    nodeAffinityPolicy: optional(oneOf(POLICIES)),
    nodeTaintsPolicy: optional(oneOf(POLICIES)),
    matchLabelKeys: listOf(text),
  })
  .transform((c): TopologySpreadConstraint => defined(c));

/** A PodSpec (of a Pod or a DaemonSet's template), reduced to what placement depends on. */
import type { PodSpec } from '../../domain/pod.ts';
import { optionalAffinity } from './affinity.ts';
import { readContainer, readInitContainer } from './containers.ts';
import {
  type At,
  defined,
  type Fields,
  list,
  optionalInteger,
  optionalList,
  optionalString,
  optionalStringMap,
} from './fields.ts';
import { readPodVolume } from './pod-volumes.ts';
import { optionalResources } from './resource-list.ts';
import { readToleration } from './taints.ts';
import { readTopologySpreadConstraint } from './topology-spread.ts';

export function readPodSpec(spec: Fields, position: At): PodSpec {
  return defined({
    containers: list(spec, 'containers', position, readContainer),
    initContainers: list(spec, 'initContainers', position, readInitContainer),
    overhead: optionalResources(spec, 'overhead', position),
    nodeSelector: optionalStringMap(spec, 'nodeSelector', position),
    affinity: optionalAffinity(spec, position),
    tolerations: list(spec, 'tolerations', position, readToleration),
    topologySpreadConstraints: list(
      spec,
      'topologySpreadConstraints',
      position,
      readTopologySpreadConstraint,
    ),
    volumes: list(spec, 'volumes', position, readPodVolume),
    runtimeClassName: optionalString(spec, 'runtimeClassName', position),
    priority: optionalInteger(spec, 'priority', position),
    terminationGracePeriodSeconds: optionalInteger(spec, 'terminationGracePeriodSeconds', position),
    resourceClaimCount: countResourceClaims(spec, position),
  });
}

/** Pods with dynamic resource claims need devices the planner cannot see; only their number is kept. */
function countResourceClaims(spec: Fields, position: At): number | undefined {
  const claims = optionalList(spec, 'resourceClaims', position, (claim) => claim);
  return claims === undefined || claims.length === 0 ? undefined : claims.length;
}

/** The resources served, and how a URL's group, version and plural find one of them. */

import type { ResourceDescriptor } from './resource-descriptor.ts';
import type { ResourceName } from './resource-names.ts';
import { daemonSets } from './resources/daemon-sets.ts';
import { events } from './resources/events.ts';
import { namespaces } from './resources/namespaces.ts';
import { nodeClaims } from './resources/node-claims.ts';
import { nodes } from './resources/nodes.ts';
import { persistentVolumeClaims, persistentVolumes } from './resources/persistent-volumes.ts';
import { podDisruptionBudgets } from './resources/pod-disruption-budgets.ts';
import { pods } from './resources/pods.ts';
import { csiNodes, runtimeClasses, storageClasses } from './resources/storage-and-node-classes.ts';
import { validatingWebhookConfigurations } from './resources/validating-webhook-configurations.ts';

const DESCRIPTORS: Readonly<Record<ResourceName, ResourceDescriptor>> = {
  pods,
  nodes,
  namespaces,
  events,
  persistentvolumes: persistentVolumes,
  persistentvolumeclaims: persistentVolumeClaims,
  daemonsets: daemonSets,
  poddisruptionbudgets: podDisruptionBudgets,
  storageclasses: storageClasses,
  csinodes: csiNodes,
  runtimeclasses: runtimeClasses,
  nodeclaims: nodeClaims,
  validatingwebhookconfigurations: validatingWebhookConfigurations,
};

export function describe(resource: ResourceName): ResourceDescriptor {
  return DESCRIPTORS[resource];
}

/** The descriptor served at `group/version/resource`, if any. */
export function findResource(
  group: string,
  version: string,
  resource: string,
): ResourceDescriptor | undefined {
  return Object.values(DESCRIPTORS).find(
    (d) => d.group === group && d.version === version && d.resource === resource,
  );
}

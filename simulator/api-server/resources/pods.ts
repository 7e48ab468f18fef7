/** core/v1 pods: defaults on create, spec immutability, graceful deletion, pod field selectors. */

import { type JsonObject, stringAt, valueAt } from '../json.ts';
import type { ListStrategies } from '../patch/strategic-merge-patch.ts';
import { describeResource, META_FIELD_SELECTORS } from '../resource-descriptor.ts';
import { defaultPod, preparePodForCreate } from './pod-defaults.ts';
import { validatePod, validatePodUpdate } from './pod-validation.ts';

const CONTAINER_LISTS: ListStrategies = {
  ports: { mergeKey: 'containerPort' },
  env: { mergeKey: 'name' },
  volumeMounts: { mergeKey: 'mountPath' },
  volumeDevices: { mergeKey: 'devicePath' },
};

/** The `patchMergeKey`s of PodSpec's lists, under a prefix (`spec`, `spec.template.spec`). */
export function podSpecListStrategies(prefix: string): ListStrategies {
  const strategies: Record<string, { mergeKey: string }> = {
    [`${prefix}.volumes`]: { mergeKey: 'name' },
    [`${prefix}.imagePullSecrets`]: { mergeKey: 'name' },
    [`${prefix}.hostAliases`]: { mergeKey: 'ip' },
    [`${prefix}.topologySpreadConstraints`]: { mergeKey: 'topologyKey' },
    [`${prefix}.schedulingGates`]: { mergeKey: 'name' },
    [`${prefix}.resourceClaims`]: { mergeKey: 'name' },
  };
  for (const containers of ['containers', 'initContainers', 'ephemeralContainers']) {
    strategies[`${prefix}.${containers}`] = { mergeKey: 'name' };
    for (const [list, strategy] of Object.entries(CONTAINER_LISTS)) {
      strategies[`${prefix}.${containers}.${list}`] = strategy as { mergeKey: string };
    }
  }
  return strategies;
}

function text(path: string): (pod: JsonObject) => string {
  return (pod) => {
    const value = valueAt(pod, path);
    return value === undefined || value === null ? '' : String(value);
  };
}

/** `pkg/registry/core/pod` PodToSelectableFields. */
const POD_FIELD_SELECTORS = {
  ...META_FIELD_SELECTORS,
  'spec.nodeName': text('spec.nodeName'),
  'spec.restartPolicy': text('spec.restartPolicy'),
  'spec.schedulerName': text('spec.schedulerName'),
  'spec.serviceAccountName': text('spec.serviceAccountName'),
  'spec.hostNetwork': (pod: JsonObject) => String(valueAt(pod, 'spec.hostNetwork') === true),
  'status.phase': text('status.phase'),
  'status.podIP': text('status.podIP'),
  'status.nominatedNodeName': text('status.nominatedNodeName'),
};

/**
 * `CheckGracefulDelete`: the requested grace period, else the pod's own, else 30 s; but an
 * unscheduled or finished pod goes at once.
 */
function gracePeriodSeconds(pod: JsonObject, requested: number | undefined): number {
  const own = valueAt(pod, 'spec.terminationGracePeriodSeconds');
  const period = requested ?? (typeof own === 'number' ? own : 30);
  const phase = stringAt(pod, 'status.phase');
  if ((stringAt(pod, 'spec.nodeName') ?? '') === '') return 0;
  if (phase === 'Succeeded' || phase === 'Failed') return 0;
  return Math.max(period, 0);
}

export const pods = describeResource({
  resource: 'pods',
  kind: 'Pod',
  namespaced: true,
  hasStatus: true,
  // Pods carry metadata.generation since Kubernetes 1.34 (PodObservedGenerationTracking).
  tracksGeneration: true,
  returnsDeletedObject: true,
  fieldSelectors: POD_FIELD_SELECTORS,
  listStrategies: {
    ...podSpecListStrategies('spec'),
    'status.conditions': { mergeKey: 'type' },
    'status.podIPs': { mergeKey: 'ip' },
    'status.hostIPs': { mergeKey: 'ip' },
  },
  strategy: {
    defaults: defaultPod,
    prepareForCreate: preparePodForCreate,
    validate: validatePod,
    validateUpdate: validatePodUpdate,
    gracePeriodSeconds,
  },
});

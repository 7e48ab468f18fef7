/**
 * What a pod asks of a node, computed as Kubernetes' PodRequests does: app containers plus
 * native sidecars, or the largest init step if that is bigger, plus pod overhead; every pod
 * also takes one `pods` slot (core: pkg/utils/resources/resources.go).
 */
import type { Pod } from '../pod.ts';
import { add, max, ResourceName, type Resources } from '../resources.ts';

const ONE_POD: Resources = { [ResourceName.pods]: 1 };

export function podRequests(pod: Pod, runtimeOverhead?: Resources): Resources {
  const containers = add(...pod.spec.containers.map((c) => c.requests));
  let running = containers;
  let sidecars: Resources = {};
  let initPeak: Resources = {};
  for (const init of pod.spec.initContainers) {
    if (init.restartPolicy === 'Always') {
      // A sidecar keeps running next to the app, and later init steps run beside it.
      running = add(running, init.requests);
      sidecars = add(sidecars, init.requests);
      initPeak = max(initPeak, sidecars);
    } else {
      initPeak = max(initPeak, add(init.requests, sidecars));
    }
  }
  const overhead = pod.spec.overhead ?? runtimeOverhead ?? {};
  return add(max(running, initPeak), overhead, ONE_POD);
}

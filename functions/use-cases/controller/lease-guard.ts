/**
 * The fence before side effects no DynamoDB condition can undo. A claim write carries the pass's
 * fencing token and is refused once the lease is lost, but a TerminateInstances, an eviction or
 * a pod or node delete cannot be: so the pass asks the state store whether it still holds the
 * lease right before each one, and a pass that lost it stops there (another pass has the
 * cluster now and decides afresh).
 */
import type { LeaseGrant } from '../../domain/state/lease.ts';
import type { CloudProvider } from '../../ports/cloud-provider.ts';
import type { Cluster } from '../../ports/cluster.ts';
import type { PassDependencies } from './pass-dependencies.ts';

/** The pass no longer holds the lease: it must stop acting, not only skip one object. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/** The cloud's irreversible calls. */
const CLOUD_SIDE_EFFECTS: readonly (keyof CloudProvider)[] = ['terminate'];
/** The cluster's irreversible calls (patches and taints are put right by the next pass). */
const CLUSTER_SIDE_EFFECTS: readonly (keyof Cluster)[] = ['evict', 'deletePod', 'deleteNode'];

type Check = () => Promise<void>;

/** `target` with `check` awaited before each of `methods`; everything else passes through. */
function checkedBefore<T extends object>(
  target: T,
  methods: readonly (keyof T)[],
  check: Check,
): T {
  const guarded = new Set<PropertyKey>(methods);
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      if (!guarded.has(key)) return value.bind(object);
      return async (...args: unknown[]) => {
        await check();
        return value.apply(object, args);
      };
    },
  });
}

/** The pass's dependencies with the fence checked before every irreversible call. */
export function fencedSideEffects(deps: PassDependencies, grant: LeaseGrant): PassDependencies {
  const check: Check = async () => {
    if (await deps.state.lease.isHeld(grant, deps.clock.now())) return;
    throw new LeaseLostError(
      `acting on the cluster: lease ${grant.fencingToken} of ${grant.holder} was lost`,
    );
  };
  return {
    ...deps,
    cloud: checkedBefore(deps.cloud, CLOUD_SIDE_EFFECTS, check),
    cluster: checkedBefore(deps.cluster, CLUSTER_SIDE_EFFECTS, check),
  };
}

/**
 * Evictions through the Eviction API (`POST pods/{name}/eviction`, policy/v1) and direct pod
 * deletes, answered as Karpenter's eviction queue reads them (core: pkg/controllers/node/
 * termination/terminator/eviction.go): 404 means the pod is gone, 409 on the uid precondition
 * means a different pod now has the name, and a 429 from a budget means "later".
 */
import type { V1DeleteOptions, V1Eviction } from '@kubernetes/client-node';
import type { EvictionOutcome, PodEvictor, PodReference } from '../../ports/cluster.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import type { CoreApi } from './clients.ts';
import { type ApiCall, apiStatusOf, request, type StatusCause, toPortError } from './errors.ts';

const EVICTED: EvictionOutcome = { evicted: true };

/**
 * The one refusal the server words but does not mark: `EvictionREST` answers 500 with this
 * message when several budgets select the pod, and nothing but the message tells it apart.
 */
const MULTIPLE_BUDGETS = 'more than one PodDisruptionBudget';

/** Preconditions guard against touching a newer pod that took the same name. */
function preconditionsOf(pod: PodReference): Pick<V1DeleteOptions, 'preconditions'> {
  return pod.uid === undefined ? {} : { preconditions: { uid: pod.uid } };
}

function evictionOf(pod: PodReference): V1Eviction {
  return {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: pod.name, namespace: pod.namespace },
    deleteOptions: preconditionsOf(pod),
  };
}

/** `policyv1.DisruptionBudgetCause`: the 429 came from a budget, not from rate limits. */
function isBudgetCause(cause: StatusCause): boolean {
  return cause.reason === 'DisruptionBudget';
}

/** What a failed eviction means, or undefined when it is a failure of the request itself. */
function outcomeOf(err: unknown): EvictionOutcome | undefined {
  const status = apiStatusOf(err);
  if (status === undefined) return undefined;
  if (status.code === 404 || status.code === 409) return EVICTED;
  const budget = status.code === 429 ? status.causes.find(isBudgetCause) : undefined;
  if (budget !== undefined) {
    return {
      evicted: false,
      reason: 'DisruptionBudget',
      message: budget.message ?? status.message,
    };
  }
  if (status.code === 500 && status.message.includes(MULTIPLE_BUDGETS)) {
    return { evicted: false, reason: 'MultipleDisruptionBudgets', message: status.message };
  }
  return undefined;
}

export class KubernetesPodEvictor implements PodEvictor {
  readonly #core: CoreApi;

  constructor(core: CoreApi) {
    this.#core = core;
  }

  async evict(pod: PodReference): Promise<EvictionOutcome> {
    const { name, namespace } = pod;
    try {
      await this.#core.createNamespacedPodEviction({ name, namespace, body: evictionOf(pod) });
      return EVICTED;
    } catch (err) {
      const outcome = outcomeOf(err);
      if (outcome !== undefined) return outcome;
      throw toPortError(err, {
        doing: `evicting pod ${namespace}/${name}`,
        verb: 'create',
        resource: 'pods/eviction',
      });
    }
  }

  /**
   * Options go in the body only: when a DELETE has a body, kube-apiserver ignores the query's
   * options, so splitting them would lose the grace period.
   */
  async deletePod(pod: PodReference, gracePeriodSeconds?: number): Promise<void> {
    const { name, namespace } = pod;
    const call: ApiCall = {
      doing: `deleting pod ${namespace}/${name}`,
      verb: 'delete',
      resource: 'pods',
    };
    const body: V1DeleteOptions = {
      ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
      ...preconditionsOf(pod),
    };
    try {
      await request(call, () => this.#core.deleteNamespacedPod({ name, namespace, body }));
    } catch (err) {
      if (!(err instanceof NotFoundError || err instanceof ConflictError)) throw err;
    }
  }
}

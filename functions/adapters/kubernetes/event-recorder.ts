/**
 * Decisions recorded as core/v1 Events, shaped as client-go's legacy recorder shapes them so
 * that `kubectl describe` and `kubectl get events` show them with their source: count 1, first
 * and last timestamp now, `source.component` and `reportingComponent` both `nodesmith`.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import type { ClusterEvent, EventRecorder } from '../../ports/cluster.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { CoreApi } from './clients.ts';
import { type ApiCall, request } from './errors.ts';

const REPORTING_COMPONENT = 'nodesmith';

/** Where events about cluster-scoped objects go; Kubernetes' own components use it too. */
const CLUSTER_SCOPED_EVENT_NAMESPACE = 'default';

function toV1Event(event: ClusterEvent, now: Date): CoreV1Event {
  const { involvedObject } = event;
  const namespace = involvedObject.namespace ?? CLUSTER_SCOPED_EVENT_NAMESPACE;
  return {
    // The server completes the name, so two events in one millisecond cannot collide.
    metadata: { generateName: `${involvedObject.name}.`, namespace },
    involvedObject: {
      apiVersion: involvedObject.apiVersion ?? 'v1',
      kind: involvedObject.kind,
      name: involvedObject.name,
      ...(involvedObject.namespace === undefined ? {} : { namespace: involvedObject.namespace }),
      ...(involvedObject.uid === undefined ? {} : { uid: involvedObject.uid }),
    },
    type: event.type,
    reason: event.reason,
    message: event.message,
    source: { component: REPORTING_COMPONENT },
    reportingComponent: REPORTING_COMPONENT,
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
}

/** What makes two events the same for deduplication: the object and the reason (Karpenter's key). */
function dedupeKey({ involvedObject: o, reason }: ClusterEvent): string {
  return `${o.kind}/${o.namespace ?? ''}/${o.name}/${o.uid ?? ''}/${reason}`;
}

export class KubernetesEventRecorder implements EventRecorder {
  readonly #core: CoreApi;
  readonly #now: () => Date;
  /** Events recorded lately, kept while the container is warm, as Karpenter keeps them in memory. */
  readonly #recent: TtlCache<true>;

  constructor(core: CoreApi, now: () => Date) {
    this.#core = core;
    this.#now = now;
    this.#recent = new TtlCache<true>(now);
  }

  async createEvent(event: ClusterEvent): Promise<void> {
    if (event.dedupeSeconds !== undefined) {
      const key = dedupeKey(event);
      if (this.#recent.get(key) !== undefined) return;
      this.#recent.set(key, true, new Date(this.#now().getTime() + event.dedupeSeconds * 1000));
    }
    const body = toV1Event(event, this.#now());
    const namespace = body.metadata.namespace ?? CLUSTER_SCOPED_EVENT_NAMESPACE;
    const call: ApiCall = {
      doing: `recording event ${event.reason} for ${event.involvedObject.kind.toLowerCase()} ${event.involvedObject.name}`,
      verb: 'create',
      resource: 'events',
    };
    await request(call, () => this.#core.createNamespacedEvent({ namespace, body }));
  }
}

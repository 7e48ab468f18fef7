/**
 * The simulated cluster's audit webhook backend: every pod and node write becomes an
 * `audit.k8s.io/v1` Event as kube-apiserver would log it under the policy docs/audit-relay.md
 * recommends, and the events are sent in batches (`--audit-webhook-mode batch`) to the relay.
 */
import type { Clock } from '../../functions/ports/clock.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ObjectStore, StoreChange } from '../api-server/storage.ts';

/** Who makes each kind of write in a real cluster. */
const USERS = {
  controller: 'system:serviceaccount:kube-system:replicaset-controller',
  scheduler: 'system:kube-scheduler',
  kubelet: 'system:node',
  nodesmith: 'nodesmith',
} as const;

function metadataOf(object: JsonObject): JsonObject {
  return (object.metadata ?? {}) as JsonObject;
}

function schedulingCondition(object: JsonObject): JsonObject | undefined {
  const conditions = ((object.status as JsonObject | undefined)?.conditions ?? []) as JsonObject[];
  return conditions.find((c) => c.type === 'PodScheduled');
}

function isUnschedulable(object: JsonObject): boolean {
  const condition = schedulingCondition(object);
  return condition?.status === 'False' && condition.reason === 'Unschedulable';
}

interface Request {
  readonly verb: string;
  readonly subresource?: string;
  readonly user: string;
  readonly code: number;
  readonly requestObject?: JsonObject;
}

/** What request made this write, as far as an audit log would tell. */
function requestOf(change: StoreChange, previous: JsonObject | undefined): Request | undefined {
  const { type, resource, object } = change;
  if (resource === 'nodes') {
    if (type === 'ADDED') return { verb: 'create', user: USERS.kubelet, code: 201 };
    if (type === 'DELETED') return { verb: 'delete', user: USERS.nodesmith, code: 200 };
    return { verb: 'patch', user: USERS.nodesmith, code: 200 };
  }
  if (resource !== 'pods') return undefined;
  if (type === 'ADDED') return { verb: 'create', user: USERS.controller, code: 201 };
  if (type === 'DELETED') return { verb: 'delete', user: USERS.controller, code: 200 };
  if (isUnschedulable(object) && !(previous && isUnschedulable(previous))) {
    const condition = schedulingCondition(object);
    return {
      verb: 'patch',
      subresource: 'status',
      user: USERS.scheduler,
      code: 200,
      requestObject: {
        metadata: { uid: metadataOf(object).uid ?? null },
        status: {
          '$setElementOrder/conditions': [{ type: 'PodScheduled' }],
          conditions: [condition ?? {}],
        },
      },
    };
  }
  const bound = (object.spec as JsonObject | undefined)?.nodeName;
  const wasBound = (previous?.spec as JsonObject | undefined)?.nodeName;
  if (bound !== undefined && wasBound === undefined) {
    return { verb: 'create', subresource: 'binding', user: USERS.scheduler, code: 201 };
  }
  return undefined;
}

export class SimulatedAuditBackend {
  readonly #clock: Clock;
  readonly #events: JsonObject[] = [];
  readonly #previous = new Map<string, JsonObject>();
  readonly #unsubscribe: () => void;
  #sequence = 0;

  constructor(store: ObjectStore, clock: Clock) {
    this.#clock = clock;
    this.#unsubscribe = store.onChange((change) => this.#record(change));
  }

  /** The events logged since the last flush, as the EventList one webhook POST carries. */
  flush(): JsonObject | undefined {
    if (this.#events.length === 0) return undefined;
    const items = this.#events.splice(0, this.#events.length);
    return { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items };
  }

  close(): void {
    this.#unsubscribe();
  }

  #record(change: StoreChange): void {
    const metadata = metadataOf(change.object);
    const key = `${change.resource}/${String(metadata.namespace ?? '')}/${String(metadata.name)}`;
    const request = requestOf(change, this.#previous.get(key));
    if (change.type === 'DELETED') this.#previous.delete(key);
    else this.#previous.set(key, change.object);
    if (request === undefined) return;
    this.#sequence += 1;
    const now = this.#clock.now().toISOString();
    const namespace = metadata.namespace as string | undefined;
    const base = namespace
      ? `/api/v1/namespaces/${namespace}/${change.resource}`
      : `/api/v1/${change.resource}`;
    this.#events.push({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: request.requestObject ? 'Request' : 'Metadata',
      auditID: `00000000-0000-4000-8000-${String(this.#sequence).padStart(12, '0')}`,
      stage: 'ResponseComplete',
      requestURI: `${base}/${String(metadata.name)}${request.subresource ? `/${request.subresource}` : ''}`,
      verb: request.verb,
      user: { username: request.user, groups: ['system:authenticated'] },
      objectRef: {
        resource: change.resource,
        ...(namespace ? { namespace } : {}),
        name: metadata.name as string,
        apiVersion: 'v1',
        ...(request.subresource ? { subresource: request.subresource } : {}),
      },
      responseStatus: { metadata: {}, code: request.code },
      ...(request.requestObject ? { requestObject: request.requestObject } : {}),
      requestReceivedTimestamp: now,
      stageTimestamp: now,
    });
  }
}

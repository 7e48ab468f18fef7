/**
 * Validating admission of the simulated cluster's writes. Its stand-in controllers — the
 * ReplicaSet controller creating pods, kube-scheduler marking them, the kubelets — and the API
 * requests the server serves all end in the store, so each write kube-apiserver would have sent
 * through its admission chain is sent through it as it is stored, with the attributes of the
 * request that made it: a pod's creation, a pod's status update, a node's deletion (the writes
 * deploy/wake-webhook.yaml's rules name). kube-apiserver calls validating webhooks before it
 * persists; here the world's writers store synchronously within the simulated second, so the
 * calls follow the write in that same second, and `settle()` waits for them before the second
 * ends. A refusal cannot undo a stored write, so it is only counted: the world's writers make
 * none a webhook refuses, and `failurePolicy: Ignore` refuses nothing.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { ObjectStore, StoreChange } from '../api-server/storage.ts';
import type { AdmissionAttributes } from './admission-attributes.ts';
import type { AdmissionVerdict, ValidatingAdmission } from './validating-admission.ts';

/** Who makes each admitted kind of write in a real cluster. */
const USERS = {
  controller: 'system:serviceaccount:kube-system:replicaset-controller',
  scheduler: 'system:kube-scheduler',
  deleter: 'kubernetes-admin',
} as const;

function keyOf(change: StoreChange): string {
  const metadata = (change.object.metadata ?? {}) as JsonObject;
  return `${change.resource}/${String(metadata.namespace ?? '')}/${String(metadata.name)}`;
}

function request(
  base: Pick<AdmissionAttributes, 'operation' | 'resource' | 'kind' | 'object' | 'oldObject'>,
  object: JsonObject,
  username: string,
  subResource?: string,
): AdmissionAttributes {
  const metadata = (object.metadata ?? {}) as JsonObject;
  const namespace = metadata.namespace;
  return {
    ...base,
    group: '',
    version: 'v1',
    ...(subResource === undefined ? {} : { subResource }),
    ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}),
    name: String(metadata.name ?? ''),
    userInfo: { username, groups: ['system:authenticated'] },
  };
}

/** The admission request behind a write, when the write is one the wake's rules could name. */
function attributesOf(
  change: StoreChange,
  previous: JsonObject | undefined,
): AdmissionAttributes | undefined {
  const { type, resource, object } = change;
  if (resource === 'nodes' && type === 'DELETED') {
    const base = {
      operation: 'DELETE',
      resource,
      kind: 'Node',
      object: null,
      oldObject: object,
    } as const;
    return request(base, object, USERS.deleter);
  }
  if (resource !== 'pods') return undefined;
  if (type === 'ADDED') {
    const base = { operation: 'CREATE', resource, kind: 'Pod', object, oldObject: null } as const;
    return request(base, object, USERS.controller);
  }
  if (type !== 'MODIFIED' || previous === undefined) return undefined;
  if (JSON.stringify(object.status) === JSON.stringify(previous.status)) return undefined;
  const base = { operation: 'UPDATE', resource, kind: 'Pod', object, oldObject: previous } as const;
  return request(base, object, USERS.scheduler, 'status');
}

export class AdmittedWrites {
  readonly #admission: ValidatingAdmission;
  readonly #previous = new Map<string, JsonObject>();
  readonly #unsubscribe: () => void;
  #pending: Promise<AdmissionVerdict>[] = [];
  #refused = 0;

  constructor(store: ObjectStore, admission: ValidatingAdmission) {
    this.#admission = admission;
    this.#unsubscribe = store.onChange((change) => this.#admit(change));
  }

  /** Writes a webhook refused (or a failed call refused, under `failurePolicy: Fail`). */
  get refused(): number {
    return this.#refused;
  }

  /** Waits for every admission call made so far. */
  async settle(): Promise<void> {
    while (this.#pending.length > 0) {
      const pending = this.#pending.splice(0, this.#pending.length);
      for (const verdict of await Promise.all(pending)) if (!verdict.allowed) this.#refused += 1;
    }
  }

  close(): void {
    this.#unsubscribe();
  }

  #admit(change: StoreChange): void {
    const key = keyOf(change);
    const attributes = attributesOf(change, this.#previous.get(key));
    if (change.resource === 'pods') {
      if (change.type === 'DELETED') this.#previous.delete(key);
      else this.#previous.set(key, change.object);
    }
    if (attributes !== undefined) this.#pending.push(this.#admission.admit(attributes));
  }
}

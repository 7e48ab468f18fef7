/**
 * Node writes as JSON merge patches. Labels, annotations and `spec.unschedulable` merge key by
 * key, so they are patched blind. Taints are a list, which every patch type replaces whole
 * (strategic merge too: `spec.taints` has no merge key), so they are read, changed and written
 * back against the resourceVersion read: a concurrent change makes the write a 409, and the
 * change is made again on what the other writer left. Registration writes labels, taints and
 * finalizers in one such write. A single finalizer is added or removed by a strategic merge
 * patch, which merges `metadata.finalizers` as a set.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { Node } from '../../domain/node.ts';
import type { Taint } from '../../domain/taints.ts';
import type { NodeMetadataPatch, NodeRegistration, NodeWriter } from '../../ports/cluster.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import { type CoreApi, MERGE_PATCH, STRATEGIC_MERGE_PATCH } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import { fromV1Node } from './mappers.ts';
import { toWireTaint, type WireTaint, withoutTaints, withTaints } from './taint-changes.ts';

/** Tries of a taint change before a ConflictError: enough for a few racing writers. */
export const DEFAULT_TAINT_ATTEMPTS = 5;

type TaintChange = (current: readonly WireTaint[]) => WireTaint[] | undefined;

/** What a node change writes: a merge patch body, or nothing when the node already has it. */
type NodeChange = (node: V1Node) => object | undefined;

/** The registration's changes to a node as read; undefined when it is already registered. */
function registrationBody(node: V1Node, registration: NodeRegistration): object | undefined {
  const current = (node.spec?.taints ?? []).map(toWireTaint);
  const added = withTaints(current, registration.addTaints) ?? current;
  const taints = withoutTaints(added, registration.removeTaints) ?? added;
  const finalizers = node.metadata?.finalizers ?? [];
  const newFinalizers = registration.finalizers.filter((f) => !finalizers.includes(f));
  const labelsSet = holds(node.metadata?.labels, registration.labels);
  const annotationsSet = holds(node.metadata?.annotations, registration.annotations);
  if (labelsSet && annotationsSet && newFinalizers.length === 0 && taints === current) {
    return undefined;
  }
  return {
    metadata: {
      labels: registration.labels,
      ...(annotationsSet ? {} : { annotations: registration.annotations }),
      finalizers: [...finalizers, ...newFinalizers],
    },
    spec: { taints },
  };
}

/** Every key already has the value wanted. */
function holds(
  current: Record<string, string> | undefined,
  wanted: Record<string, string>,
): boolean {
  return Object.entries(wanted).every(([key, value]) => current?.[key] === value);
}

function patchCall(nodeName: string): ApiCall {
  return { doing: `patching node ${nodeName}`, verb: 'patch', resource: 'nodes' };
}

export class KubernetesNodeWriter implements NodeWriter {
  readonly #core: CoreApi;
  readonly #taintAttempts: number;

  constructor(core: CoreApi, taintAttempts: number) {
    this.#core = core;
    this.#taintAttempts = taintAttempts;
  }

  patchNodeMetadata(nodeName: string, patch: NodeMetadataPatch): Promise<Node> {
    const metadata = {
      ...(patch.labels === undefined ? {} : { labels: patch.labels }),
      ...(patch.annotations === undefined ? {} : { annotations: patch.annotations }),
    };
    return this.#patch(nodeName, { metadata });
  }

  cordon(nodeName: string): Promise<Node> {
    return this.#patch(nodeName, { spec: { unschedulable: true } });
  }

  /** `null` removes the field, which is what an uncordoned node looks like. */
  uncordon(nodeName: string): Promise<Node> {
    return this.#patch(nodeName, { spec: { unschedulable: null } });
  }

  registerNode(nodeName: string, registration: NodeRegistration): Promise<Node> {
    return this.#change(nodeName, (node) => registrationBody(node, registration));
  }

  addFinalizer(nodeName: string, finalizer: string): Promise<Node> {
    return this.#patch(nodeName, { metadata: { finalizers: [finalizer] } }, STRATEGIC_MERGE_PATCH);
  }

  async removeFinalizer(nodeName: string, finalizer: string): Promise<void> {
    const body = { metadata: { '$deleteFromPrimitiveList/finalizers': [finalizer] } };
    try {
      await this.#patch(nodeName, body, STRATEGIC_MERGE_PATCH);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }

  addTaints(nodeName: string, taints: readonly Taint[]): Promise<Node> {
    return this.#changeTaints(nodeName, (current) => withTaints(current, taints));
  }

  removeTaints(nodeName: string, taints: readonly Taint[]): Promise<Node> {
    return this.#changeTaints(nodeName, (current) => withoutTaints(current, taints));
  }

  async deleteNode(nodeName: string): Promise<void> {
    const call: ApiCall = { doing: `deleting node ${nodeName}`, verb: 'delete', resource: 'nodes' };
    try {
      await request(call, () => this.#core.deleteNode({ name: nodeName }));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }

  async #patch(nodeName: string, body: object, strategy = MERGE_PATCH): Promise<Node> {
    const patched = await request(patchCall(nodeName), () =>
      this.#core.patchNode({ name: nodeName, body }, strategy),
    );
    return fromV1Node(patched);
  }

  #changeTaints(nodeName: string, change: TaintChange): Promise<Node> {
    return this.#change(nodeName, (node) => {
      const taints = change((node.spec?.taints ?? []).map(toWireTaint));
      return taints === undefined ? undefined : { spec: { taints } };
    });
  }

  /** Reads the node and writes the change against the resourceVersion read, again on a 409. */
  async #change(nodeName: string, change: NodeChange): Promise<Node> {
    for (let attempt = 1; ; attempt += 1) {
      const node = await this.#read(nodeName);
      const body = change(node) as { metadata?: object } | undefined;
      if (body === undefined) return fromV1Node(node);
      try {
        return await this.#patch(nodeName, {
          ...body,
          // The resourceVersion makes the write conditional on nobody having changed the node.
          metadata: { ...body.metadata, resourceVersion: node.metadata?.resourceVersion },
        });
      } catch (err) {
        if (!(err instanceof ConflictError) || attempt >= this.#taintAttempts) throw err;
      }
    }
  }

  #read(nodeName: string): Promise<V1Node> {
    const call: ApiCall = { doing: `reading node ${nodeName}`, verb: 'get', resource: 'nodes' };
    return request(call, () => this.#core.readNode({ name: nodeName }));
  }
}

/**
 * Node writes as JSON merge patches. Labels, annotations and `spec.unschedulable` merge key by
 * key, so they are patched blind. Taints are a list, which every patch type replaces whole
 * (strategic merge too: `spec.taints` has no merge key), so they are read, changed and written
 * back against the resourceVersion read: a concurrent change makes the write a 409, and the
 * change is made again on what the other writer left.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { Node } from '../../domain/node.ts';
import type { Taint } from '../../domain/taints.ts';
import type { NodeMetadataPatch, NodeWriter } from '../../ports/cluster.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import { type CoreApi, MERGE_PATCH } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import { fromV1Node } from './mappers.ts';
import { toWireTaint, type WireTaint, withoutTaints, withTaints } from './taint-changes.ts';

/** Tries of a taint change before a ConflictError: enough for a few racing writers. */
export const DEFAULT_TAINT_ATTEMPTS = 5;

type TaintChange = (current: readonly WireTaint[]) => WireTaint[] | undefined;

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

  async #patch(nodeName: string, body: object): Promise<Node> {
    const patched = await request(patchCall(nodeName), () =>
      this.#core.patchNode({ name: nodeName, body }, MERGE_PATCH),
    );
    return fromV1Node(patched);
  }

  async #changeTaints(nodeName: string, change: TaintChange): Promise<Node> {
    for (let attempt = 1; ; attempt += 1) {
      const node = await this.#read(nodeName);
      const taints = change((node.spec?.taints ?? []).map(toWireTaint));
      if (taints === undefined) return fromV1Node(node);
      try {
        return await this.#patch(nodeName, {
          // The resourceVersion makes the write conditional on nobody having changed the node.
          metadata: { resourceVersion: node.metadata?.resourceVersion },
          spec: { taints },
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

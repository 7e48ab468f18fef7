/**
 * Karpenter's `karpenter.sh/v1` NodeClaims through the custom objects API, for adoption. The list
 * is read page by page like every other; it comes back as plain JSON, so its continue token keeps
 * the wire name `metadata.continue`. A NodeClaim is released by deleting it, which only sets its
 * deletionTimestamp while Karpenter's termination finalizer holds it, and then removing that
 * finalizer, which without a running Karpenter nobody else would. Custom resources take no
 * strategic merge patch, so the finalizer list goes back whole, as a JSON merge patch against the
 * resourceVersion read: a concurrent change makes the write a 409, and the removal is made again
 * on what the other writer left.
 */
import { KARPENTER_TERMINATION_FINALIZER } from '../../domain/adoption/karpenter-node-claim.ts';
import type { NodeClaim } from '../../domain/node-claim.ts';
import { compareText } from '../../domain/state/order.ts';
import type { KarpenterNodeClaims } from '../../ports/cluster.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import { type CustomObjectsClient, MERGE_PATCH } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import { fromKarpenterNodeClaim, type Named } from './mappers.ts';
import { type Page, type PageQuery, readAllPages } from './pages.ts';

/** Tries of a finalizer removal before a ConflictError: enough for a few racing writers. */
export const DEFAULT_RELEASE_ATTEMPTS = 5;

const NODE_CLAIMS = { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' } as const;

/** A NodeClaim as the custom objects API returns it, with the metadata a release reads. */
interface WireNodeClaim extends Named {
  readonly metadata?: Named['metadata'] & {
    readonly resourceVersion?: string;
    readonly finalizers?: readonly string[];
  };
}

interface WireNodeClaimList {
  readonly items?: readonly WireNodeClaim[];
  readonly metadata?: { readonly continue?: string };
}

function nodeClaimCall(doing: string, verb: ApiCall['verb']): ApiCall {
  return { doing, verb, resource: 'nodeclaims', grantedBy: 'deploy/rbac-adoption.yaml' };
}

/** By name in byte order, the order the API server keeps its keys in. */
function byName(a: NodeClaim, b: NodeClaim): number {
  return compareText(a.metadata.name, b.metadata.name);
}

/** The request's result, or undefined when it met a 404: the NodeClaim, or its CRD, is gone. */
async function unlessGone<T>(pending: Promise<T>): Promise<T | undefined> {
  try {
    return await pending;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export class KubernetesKarpenterNodeClaims implements KarpenterNodeClaims {
  readonly #api: CustomObjectsClient;
  readonly #pageSize: number;
  readonly #releaseAttempts: number;

  constructor(api: CustomObjectsClient, pageSize: number, releaseAttempts: number) {
    this.#api = api;
    this.#pageSize = pageSize;
    this.#releaseAttempts = releaseAttempts;
  }

  async karpenterNodeClaims(): Promise<readonly NodeClaim[]> {
    const call = nodeClaimCall('listing nodeclaims', 'list');
    const pages = request(call, () => readAllPages((query) => this.#page(query), this.#pageSize));
    const objects = (await unlessGone(pages)) ?? [];
    return objects.map(fromKarpenterNodeClaim).sort(byName);
  }

  async releaseKarpenterNodeClaim(name: string): Promise<void> {
    if (await this.#delete(name)) await this.#removeTerminationFinalizer(name);
  }

  async #page(query: PageQuery): Promise<Page<WireNodeClaim>> {
    const list = (await this.#api.listClusterCustomObject({
      ...NODE_CLAIMS,
      ...query,
    })) as WireNodeClaimList;
    return { items: list.items ?? [], metadata: { _continue: list.metadata?.continue } };
  }

  /** Whether the NodeClaim was there to delete. */
  async #delete(name: string): Promise<boolean> {
    const call = nodeClaimCall(`deleting nodeclaim ${name}`, 'delete');
    try {
      await request(call, () => this.#api.deleteClusterCustomObject({ ...NODE_CLAIMS, name }));
      return true;
    } catch (err) {
      if (err instanceof NotFoundError) return false;
      throw err;
    }
  }

  /** Reads the NodeClaim and writes its finalizers back without Karpenter's, again on a 409. */
  async #removeTerminationFinalizer(name: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const claim = await unlessGone(this.#read(name));
      const finalizers = claim?.metadata?.finalizers ?? [];
      if (!finalizers.includes(KARPENTER_TERMINATION_FINALIZER)) return;
      const kept = finalizers.filter((f) => f !== KARPENTER_TERMINATION_FINALIZER);
      // The resourceVersion makes the write conditional on nobody having changed the NodeClaim.
      const metadata = { finalizers: kept, resourceVersion: claim?.metadata?.resourceVersion };
      try {
        await unlessGone(this.#patch(name, { metadata }));
        return;
      } catch (err) {
        if (!(err instanceof ConflictError) || attempt >= this.#releaseAttempts) throw err;
      }
    }
  }

  #read(name: string): Promise<WireNodeClaim> {
    const call = nodeClaimCall(`reading nodeclaim ${name}`, 'get');
    return request(call, () => this.#api.getClusterCustomObject({ ...NODE_CLAIMS, name }));
  }

  #patch(name: string, body: object): Promise<unknown> {
    const call = nodeClaimCall(`patching nodeclaim ${name}`, 'patch');
    return request(call, () =>
      this.#api.patchClusterCustomObject({ ...NODE_CLAIMS, name, body }, MERGE_PATCH),
    );
  }
}

/**
 * The documents `nodesmith pools apply` sends: every NodePool, EC2NodeClass and NodeOverlay in
 * the files, each checked by the same schemas the API uses before anything is sent, so a bad file
 * is refused whole, naming its file, line and field, and nothing is half applied. Classes go
 * first, so the pools that name them are ready at once; overlays before pools, so the first pass
 * that sees a new pool already prices and sizes its instance types with them, rather than
 * launching, say, a four-GPU type for pods that a time-sliced one-GPU type would hold.
 */
import { readFileSync } from 'node:fs';
import { readDocuments } from '../../../functions/manifests/documents.ts';
import { parseEC2NodeClass } from '../../../functions/manifests/karpenter/node-class.ts';
import { parseNodeOverlay } from '../../../functions/manifests/karpenter/node-overlay.ts';
import { parseNodePool } from '../../../functions/manifests/karpenter/node-pool.ts';
import { parseLocated } from '../../../functions/manifests/locate-error.ts';
import { UsageError } from '../usage-error.ts';

/** The API's collections, in the order `apply` sends them. */
const COLLECTIONS = ['nodeclasses', 'nodeoverlays', 'nodepools'] as const;
export type PoolCollection = (typeof COLLECTIONS)[number];

/** Each collection's documents as kubectl names them: `nodepool.karpenter.sh/default`. */
export const LABELS: Readonly<Record<PoolCollection, string>> = {
  nodepools: 'nodepool.karpenter.sh',
  nodeclasses: 'ec2nodeclass.karpenter.k8s.aws',
  nodeoverlays: 'nodeoverlay.karpenter.sh',
};

export interface PoolDocument {
  /** `nodepools`, `nodeclasses` or `nodeoverlays`: the API collection. */
  readonly collection: PoolCollection;
  /** As kubectl names it: `nodepool.karpenter.sh/default`. */
  readonly label: string;
  readonly name: string;
  /** The document's own text, sent as JSON. */
  readonly body: string;
}

interface Kind {
  readonly collection: PoolCollection;
  readonly parse: (object: unknown) => { readonly metadata: { readonly name: string } };
}

const KINDS: Readonly<Record<string, Kind>> = {
  'karpenter.sh/v1 NodePool': { collection: 'nodepools', parse: parseNodePool },
  'karpenter.k8s.aws/v1 EC2NodeClass': { collection: 'nodeclasses', parse: parseEC2NodeClass },
  'karpenter.sh/v1alpha1 NodeOverlay': { collection: 'nodeoverlays', parse: parseNodeOverlay },
};

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read it: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
}

export function poolDocuments(files: readonly string[]): PoolDocument[] {
  const found: PoolDocument[] = [];
  for (const file of files) {
    for (const document of readDocuments(readText(file), file)) {
      const kind = KINDS[`${document.apiVersion} ${document.kind}`];
      if (kind === undefined) {
        throw new UsageError(
          `${file}:${document.line}: ${document.apiVersion} ${document.kind} is not a NodePool, EC2NodeClass or NodeOverlay`,
        );
      }
      const parsed = parseLocated(document, kind.parse);
      found.push({
        collection: kind.collection,
        label: `${LABELS[kind.collection]}/${parsed.metadata.name}`,
        name: parsed.metadata.name,
        body: JSON.stringify(document.object),
      });
    }
  }
  if (found.length === 0) {
    throw new UsageError(`${files.join(', ')}: no NodePool, EC2NodeClass or NodeOverlay`);
  }
  const rank = (d: PoolDocument) => COLLECTIONS.indexOf(d.collection);
  return found.sort((a, b) => rank(a) - rank(b));
}

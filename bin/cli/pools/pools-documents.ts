/**
 * The documents `nodesmith pools apply` sends: every NodePool and EC2NodeClass in the files,
 * each checked by the same schemas the API uses before anything is sent, so a bad file is
 * refused whole, naming its file, line and field, and nothing is half applied. Classes go first,
 * so the pools that name them are ready at once.
 */
import { readFileSync } from 'node:fs';
import { readDocuments } from '../../../functions/manifests/documents.ts';
import { parseEC2NodeClass } from '../../../functions/manifests/karpenter/node-class.ts';
import { parseNodePool } from '../../../functions/manifests/karpenter/node-pool.ts';
import { parseLocated } from '../../../functions/manifests/locate-error.ts';
import { UsageError } from '../usage-error.ts';

export interface PoolDocument {
  /** `nodepools` or `nodeclasses`: the API collection. */
  readonly collection: 'nodepools' | 'nodeclasses';
  /** As kubectl names it: `nodepool.karpenter.sh/default`. */
  readonly label: string;
  readonly name: string;
  /** The document's own text, sent as JSON. */
  readonly body: string;
}

interface Kind {
  readonly collection: PoolDocument['collection'];
  readonly label: string;
  readonly parse: (object: unknown) => { readonly metadata: { readonly name: string } };
}

const KINDS: Readonly<Record<string, Kind>> = {
  'karpenter.sh/v1 NodePool': {
    collection: 'nodepools',
    label: 'nodepool.karpenter.sh',
    parse: parseNodePool,
  },
  'karpenter.k8s.aws/v1 EC2NodeClass': {
    collection: 'nodeclasses',
    label: 'ec2nodeclass.karpenter.k8s.aws',
    parse: parseEC2NodeClass,
  },
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
          `${file}:${document.line}: ${document.apiVersion} ${document.kind} is not a NodePool or EC2NodeClass`,
        );
      }
      const parsed = parseLocated(document, kind.parse);
      found.push({
        collection: kind.collection,
        label: `${kind.label}/${parsed.metadata.name}`,
        name: parsed.metadata.name,
        body: JSON.stringify(document.object),
      });
    }
  }
  if (found.length === 0) throw new UsageError(`${files.join(', ')}: no NodePool or EC2NodeClass`);
  return found.sort((a, b) =>
    a.collection === b.collection ? 0 : a.collection === 'nodeclasses' ? -1 : 1,
  );
}

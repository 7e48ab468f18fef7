/**
 * `nodesmith pools`: NodePools, EC2NodeClasses and NodeOverlays of a deployed Nodesmith, through
 * its API, with the user's AWS credentials (SigV4 by the SDK's signer). The endpoint is the
 * stack's `ApiUrl` output, given with --endpoint or NODESMITH_API_URL.
 *
 *   nodesmith pools apply -f nodepool.yaml     created, configured or unchanged, as kubectl says
 *   nodesmith pools get [nodepools|nodeclasses|nodeoverlays] [NAME] [-o yaml|json]
 *   nodesmith pools delete nodepool NAME       its nodes are drained and terminated
 *   nodesmith pools scale NAME --replicas N    a static NodePool keeps N nodes
 *   nodesmith pools status [-o json]           nodes, claims in flight, usage, cost per pool
 */
import type { Command } from 'commander';
import { type ApiOptions, call, checkOutput, print, withApiOptions } from '../api-call.ts';
import { UsageError } from '../usage-error.ts';
import { LABELS, type PoolCollection, poolDocuments } from './pools-documents.ts';
import { addScaleCommand } from './pools-scale.ts';
import {
  type ClusterStatus,
  classesTable,
  overlaysTable,
  type PoolStatus,
  poolsTable,
  statusTable,
} from './pools-tables.ts';

const COLLECTIONS: Readonly<Record<string, PoolCollection>> = {
  nodepool: 'nodepools',
  nodepools: 'nodepools',
  nodeclass: 'nodeclasses',
  nodeclasses: 'nodeclasses',
  ec2nodeclass: 'nodeclasses',
  ec2nodeclasses: 'nodeclasses',
  nodeoverlay: 'nodeoverlays',
  nodeoverlays: 'nodeoverlays',
  overlay: 'nodeoverlays',
  overlays: 'nodeoverlays',
};

function collectionOf(word: string): PoolCollection {
  const collection = COLLECTIONS[word.toLowerCase()];
  if (collection === undefined) {
    throw new UsageError(`"${word}" is not nodepools, nodeclasses or nodeoverlays`);
  }
  return collection;
}

/** The collection's items as a table like kubectl's. */
function tableOf(collection: PoolCollection, items: readonly unknown[]): string {
  if (collection === 'nodepools') return poolsTable(items as Parameters<typeof poolsTable>[0]);
  if (collection === 'nodeoverlays') {
    return overlaysTable(items as Parameters<typeof overlaysTable>[0]);
  }
  return classesTable((items as { metadata: { name: string } }[]).map((i) => i.metadata));
}

async function apply(files: string[], options: ApiOptions): Promise<void> {
  const documents = poolDocuments(files);
  for (const document of documents) {
    const body = (await call(options, (client) =>
      client.request('PUT', `/v1/${document.collection}/${document.name}`, document.body, {
        'content-type': 'application/json',
      }),
    )) as { result: string };
    process.stdout.write(`${document.label} ${body.result}\n`);
  }
}

async function get(
  what: string,
  name: string | undefined,
  options: ApiOptions & { output: string },
): Promise<void> {
  const collection = collectionOf(what);
  const path = `/v1/${collection}${name === undefined ? '' : `/${name}`}`;
  const body = await call(options, (client) => client.request('GET', path));
  if (options.output !== 'table') return print(body, options.output);
  const items = name === undefined ? (body as { items: unknown[] }).items : [body];
  process.stdout.write(tableOf(collection, items));
}

async function remove(kind: string, name: string, options: ApiOptions): Promise<void> {
  const collection = collectionOf(kind);
  const body = (await call(options, (c) => c.request('DELETE', `/v1/${collection}/${name}`))) as {
    nodeClaimsMarkedForDeletion?: string[];
  };
  const going = body.nodeClaimsMarkedForDeletion ?? [];
  const tail = going.length > 0 ? `; ${going.length} node claims are being deleted` : '';
  process.stdout.write(`${LABELS[collection]}/${name} deleted${tail}\n`);
}

async function status(options: ApiOptions & { output: string }): Promise<void> {
  checkOutput(options.output, ['table', 'json']);
  const body = (await call(options, (c) => c.request('GET', '/v1/status'))) as {
    nodePools: PoolStatus[];
    cluster?: ClusterStatus;
  };
  if (options.output === 'json') print(body, 'json');
  else process.stdout.write(statusTable(body.nodePools, body.cluster));
}

export function addPoolsCommand(program: Command): void {
  const pools = program
    .command('pools')
    .description(
      'manage the NodePools, EC2NodeClasses and NodeOverlays of a deployed Nodesmith through its API',
    );
  withApiOptions(pools.command('apply'))
    .description('create or update every NodePool, EC2NodeClass and NodeOverlay in the files')
    .requiredOption(
      '-f, --file <path>',
      'a YAML or JSON file (repeatable)',
      (v, p: string[]) => [...p, v],
      [],
    )
    .action((options: ApiOptions & { file: string[] }) => apply(options.file, options));
  withApiOptions(pools.command('get'))
    .description('show NodePools (the default), EC2NodeClasses or NodeOverlays')
    .argument('[kind]', 'nodepools, nodeclasses or nodeoverlays', 'nodepools')
    .argument('[name]', 'one of them')
    .option('-o, --output <format>', 'table, yaml or json', 'table')
    .action((kind: string, name: string | undefined, options: ApiOptions & { output: string }) => {
      checkOutput(options.output);
      return get(kind, name, options);
    });
  withApiOptions(pools.command('delete'))
    .description(
      'delete a NodePool (its nodes are drained and terminated), an unused EC2NodeClass or a NodeOverlay',
    )
    .argument('<kind>', 'nodepool, nodeclass or nodeoverlay')
    .argument('<name>')
    .action(remove);
  addScaleCommand(pools);
  withApiOptions(pools.command('status'))
    .description(
      'nodes, claims in flight, resources against limits, cost and disruptions per NodePool',
    )
    .option('-o, --output <format>', 'table or json', 'table')
    .action(status);
}

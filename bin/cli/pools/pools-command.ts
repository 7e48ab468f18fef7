/**
 * `nodesmith pools`: NodePools and EC2NodeClasses of a deployed Nodesmith, through its API, with
 * the user's AWS credentials (SigV4 by the SDK's signer). The endpoint is the stack's `ApiUrl`
 * output, given with --endpoint or NODESMITH_API_URL.
 *
 *   nodesmith pools apply -f nodepool.yaml     created, configured or unchanged, as kubectl says
 *   nodesmith pools get [nodepools|nodeclasses] [NAME] [-o yaml|json]
 *   nodesmith pools delete nodepool NAME       its nodes are drained and terminated
 *   nodesmith pools status [-o json]           nodes, claims in flight, usage, cost per pool
 */
import type { Command } from 'commander';
import { type ApiOptions, call, checkOutput, print, withApiOptions } from '../api-call.ts';
import { UsageError } from '../usage-error.ts';
import { poolDocuments } from './pools-documents.ts';
import {
  type ClusterStatus,
  classesTable,
  type PoolStatus,
  poolsTable,
  statusTable,
} from './pools-tables.ts';

const COLLECTIONS: Readonly<Record<string, 'nodepools' | 'nodeclasses'>> = {
  nodepool: 'nodepools',
  nodepools: 'nodepools',
  nodeclass: 'nodeclasses',
  nodeclasses: 'nodeclasses',
  ec2nodeclass: 'nodeclasses',
  ec2nodeclasses: 'nodeclasses',
};

function collectionOf(word: string): 'nodepools' | 'nodeclasses' {
  const collection = COLLECTIONS[word.toLowerCase()];
  if (collection === undefined) {
    throw new UsageError(`"${word}" is not nodepools or nodeclasses`);
  }
  return collection;
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
  process.stdout.write(
    collection === 'nodepools'
      ? poolsTable(items as Parameters<typeof poolsTable>[0])
      : classesTable((items as { metadata: { name: string } }[]).map((i) => i.metadata)),
  );
}

async function remove(kind: string, name: string, options: ApiOptions): Promise<void> {
  const collection = collectionOf(kind);
  const body = (await call(options, (c) => c.request('DELETE', `/v1/${collection}/${name}`))) as {
    nodeClaimsMarkedForDeletion?: string[];
  };
  const going = body.nodeClaimsMarkedForDeletion ?? [];
  const label =
    collection === 'nodepools' ? 'nodepool.karpenter.sh' : 'ec2nodeclass.karpenter.k8s.aws';
  const tail = going.length > 0 ? `; ${going.length} node claims are being deleted` : '';
  process.stdout.write(`${label}/${name} deleted${tail}\n`);
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
    .description('manage the NodePools and EC2NodeClasses of a deployed Nodesmith through its API');
  withApiOptions(pools.command('apply'))
    .description('create or update every NodePool and EC2NodeClass in the files')
    .requiredOption(
      '-f, --file <path>',
      'a YAML or JSON file (repeatable)',
      (v, p: string[]) => [...p, v],
      [],
    )
    .action((options: ApiOptions & { file: string[] }) => apply(options.file, options));
  withApiOptions(pools.command('get'))
    .description('show NodePools (the default) or EC2NodeClasses')
    .argument('[kind]', 'nodepools or nodeclasses', 'nodepools')
    .argument('[name]', 'one of them')
    .option('-o, --output <format>', 'table, yaml or json', 'table')
    .action((kind: string, name: string | undefined, options: ApiOptions & { output: string }) => {
      checkOutput(options.output);
      return get(kind, name, options);
    });
  withApiOptions(pools.command('delete'))
    .description(
      'delete a NodePool (its nodes are drained and terminated) or an unused EC2NodeClass',
    )
    .argument('<kind>', 'nodepool or nodeclass')
    .argument('<name>')
    .action(remove);
  withApiOptions(pools.command('status'))
    .description(
      'nodes, claims in flight, resources against limits, cost and disruptions per NodePool',
    )
    .option('-o, --output <format>', 'table or json', 'table')
    .action(status);
}

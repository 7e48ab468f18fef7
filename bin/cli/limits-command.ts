/**
 * `nodesmith limits`: the cluster's limits on a deployed Nodesmith, through its API.
 *
 *   nodesmith limits get [-o table|yaml|json]
 *   nodesmith limits set --nodes 400 --hourly-cost 900 [--cpu N] [--memory Q] [--gpu N] [--remove KEY]
 *
 * `set` changes only the limits it names: it reads the limits in force, applies the change and
 * writes them back over the version it read, so two people setting limits at once cannot undo
 * each other's change unseen (the second gets a conflict and runs the command again).
 */
import type { Command } from 'commander';
import { HOURLY_COST } from '../../functions/domain/limits/hourly-cost.ts';
import {
  type ApiOptions,
  ApiRefusal,
  call,
  checkOutput,
  print,
  withApiOptions,
} from './api-call.ts';
import { table } from './text-table.ts';
import { UsageError } from './usage-error.ts';

interface LimitsDocument {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly spec: { readonly limits: Readonly<Record<string, string>> };
  readonly status?: { readonly source?: string };
}

interface SetOptions extends ApiOptions {
  readonly nodes?: string;
  readonly cpu?: string;
  readonly memory?: string;
  readonly gpu?: string;
  readonly hourlyCost?: string;
  readonly remove: string[];
}

/** The flags of `set` and the limit each one sets. */
const FLAGS: readonly (readonly [keyof SetOptions, string])[] = [
  ['nodes', 'nodes'],
  ['cpu', 'cpu'],
  ['memory', 'memory'],
  ['gpu', 'nvidia.com/gpu'],
  ['hourlyCost', HOURLY_COST],
];

/** The limits in force, or none when neither the API nor the deployment set any. */
async function current(options: ApiOptions): Promise<LimitsDocument | undefined> {
  try {
    return (await call(options, (c) => c.request('GET', '/v1/limits'))) as LimitsDocument;
  } catch (err) {
    if (err instanceof ApiRefusal && err.status === 404) return undefined;
    throw err;
  }
}

function changed(limits: Readonly<Record<string, string>>, options: SetOptions) {
  const out: Record<string, string> = { ...limits };
  for (const [flag, name] of FLAGS) {
    const value = options[flag];
    if (typeof value === 'string') out[name] = value;
  }
  for (const name of options.remove) {
    if (!(name in out)) throw new UsageError(`--remove ${name}: no such limit is set`);
    delete out[name];
  }
  return out;
}

async function set(options: SetOptions): Promise<void> {
  if (FLAGS.every(([flag]) => options[flag] === undefined) && options.remove.length === 0) {
    throw new UsageError(
      'name a limit to set: --nodes, --cpu, --memory, --gpu, --hourly-cost, or --remove KEY',
    );
  }
  const before = await current(options);
  const limits = changed(before?.spec.limits ?? {}, options);
  const version = before?.metadata.resourceVersion;
  const body = {
    apiVersion: 'nodesmith.io/v1',
    kind: 'ClusterLimits',
    metadata: { name: 'cluster' },
    spec: { limits },
  };
  const reply = (await call(options, (c) =>
    c.request('PUT', '/v1/limits', JSON.stringify(body), {
      'content-type': 'application/json',
      ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
    }),
  )) as { result: string };
  process.stdout.write(`clusterlimits.nodesmith.io/cluster ${reply.result}\n`);
}

async function get(options: ApiOptions & { output: string }): Promise<void> {
  checkOutput(options.output);
  const limits = await current(options);
  if (limits === undefined) {
    process.stdout.write('no cluster limits are set\n');
    return;
  }
  if (options.output !== 'table') return print(limits, options.output);
  const source = limits.status?.source === 'deployment' ? 'deployment (cdk.json)' : 'api';
  const rows = Object.entries(limits.spec.limits).map(([name, value]) => [name, value, source]);
  process.stdout.write(`${table(['LIMIT', 'VALUE', 'SET BY'], rows)}\n`);
}

export function addLimitsCommand(program: Command): void {
  const limits = program
    .command('limits')
    .description("the cluster's limits over every NodePool, on a deployed Nodesmith");
  withApiOptions(limits.command('get'))
    .description('show the limits in force and where they were set')
    .option('-o, --output <format>', 'table, yaml or json', 'table')
    .action(get);
  withApiOptions(limits.command('set'))
    .description('set or change limits; those not named stay as they are')
    .option('--nodes <count>', 'nodes over every NodePool')
    .option('--cpu <quantity>', 'CPU over every NodePool (cores, or 500m)')
    .option('--memory <quantity>', 'memory over every NodePool (such as 2000Gi)')
    .option('--gpu <count>', 'nvidia.com/gpu devices over every NodePool')
    .option('--hourly-cost <dollars>', 'US dollars per hour over every NodePool')
    .option('--remove <limit>', 'drop a limit (repeatable)', (v, p: string[]) => [...p, v], [])
    .action(set);
}

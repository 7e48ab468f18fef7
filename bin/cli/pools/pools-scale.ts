/**
 * `nodesmith pools scale NAME --replicas N`: a static NodePool's replicas, through the API's
 * scale subresource, with the merge patch `kubectl scale` sends. The pool keeps that many nodes;
 * a dynamic pool (no replicas) is refused with Karpenter's message and exit status 2.
 */
import type { Command } from 'commander';
import { type ApiOptions, call, checkOutput, print, withApiOptions } from '../api-call.ts';
import { UsageError } from '../usage-error.ts';
import { LABELS } from './pools-documents.ts';

interface ScaleReply {
  readonly result: 'configured' | 'unchanged';
  readonly spec: { readonly replicas: number };
  readonly status: { readonly replicas: number };
}

function replicasOf(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--replicas must be a whole number of nodes, 0 or more, got "${text}"`);
  }
  return Number(text);
}

async function scale(
  name: string,
  options: ApiOptions & { replicas: string; output: string },
): Promise<void> {
  checkOutput(options.output);
  const replicas = replicasOf(options.replicas);
  const patch = JSON.stringify({ spec: { replicas } });
  const reply = (await call(options, (client) =>
    client.request('PATCH', `/v1/nodepools/${name}/scale`, patch, {
      'content-type': 'application/merge-patch+json',
    }),
  )) as ScaleReply;
  if (options.output !== 'table') return print(reply, options.output);
  const label = `${LABELS.nodepools}/${name}`;
  const done = reply.result === 'unchanged' ? 'unchanged at' : 'scaled to';
  process.stdout.write(
    `${label} ${done} ${reply.spec.replicas} replicas (${reply.status.replicas} nodes now)\n`,
  );
}

export function addScaleCommand(pools: Command): void {
  withApiOptions(pools.command('scale'))
    .description("set a static NodePool's replicas: it keeps exactly that many nodes")
    .argument('<name>', 'the NodePool')
    .requiredOption('--replicas <count>', 'the number of nodes to keep')
    .option('-o, --output <format>', 'table, yaml or json (the autoscaling/v1 Scale)', 'table')
    .action(scale);
}

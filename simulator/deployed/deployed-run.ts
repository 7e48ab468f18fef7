/**
 * One scenario run as deployed (`nodesmith simulate --deployed`): the stack synthesized by the
 * real `cdk synth` (kept by a hash of its inputs, so a second run starts at once), DynamoDB Local
 * for the state tables, and the run itself with Nodesmith's bundles in their own processes.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoDbLocal } from '../../functions/adapters/dynamodb/dynamodb-local.ts';
import { runSimulation } from '../run/run-simulation.ts';
import type { SimulationOptions } from '../run/simulation-options.ts';
import type { SimulationReport } from '../run/simulation-report.ts';
import type { Scenario } from '../scenarios/scenario.ts';
import { synthesizedStack } from '../synthesis/synthesized-stack.ts';
import { appliedRbacFiles } from './applied-rbac.ts';
import { DeployedNodesmith, deployedStateStore } from './deployed-nodesmith.ts';
import { deploymentContext } from './deployment-context.ts';

/** Where synthesized stacks are kept between runs, one directory per hash of their inputs. */
export const SYNTHESIS_CACHE = join(tmpdir(), 'nodesmith-synth');

/** The project's root: the nearest folder above this code that holds cdk.json. */
function projectRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'cdk.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('no cdk.json above the simulator: run from the project');
    folder = parent;
  }
  return folder;
}

export interface DeployedRunOptions extends Omit<SimulationOptions, 'deploy' | 'state'> {
  /** IAM actions, and Kubernetes permissions (`k8s:patch:nodes`), removed from every role for the run. */
  readonly deny: readonly string[];
  /** The RBAC files applied to the cluster; what an operator applies for this stack when absent. */
  readonly rbacFiles?: readonly string[];
  /** Each line a function writes, as CloudWatch Logs would get it. */
  readonly onLog?: (functionLogicalId: string, line: string) => void;
}

export async function deployedRun(
  scenario: Scenario,
  options: DeployedRunOptions,
): Promise<SimulationReport> {
  const root = projectRoot();
  const context = deploymentContext({
    ...(options.adoptKarpenterNodes ? { adoptKarpenterNodes: true } : {}),
    ...(options.selfManaged ? { selfManaged: { region: scenario.region } } : {}),
  });
  const stack = synthesizedStack({ projectRoot: root, cacheRoot: SYNTHESIS_CACHE, context });
  // Every function signs with its own role's key: they must all see the same tables.
  const dynamodb = await startDynamoDbLocal({ sharedDb: true });
  try {
    const { deny, onLog, rbacFiles, ...rest } = options;
    const deployment = {
      rbacFiles: rbacFiles ?? appliedRbacFiles(root, stack.template),
      stack,
      context,
      region: scenario.region,
      dynamodbEndpoint: dynamodb.endpoint,
      deny,
      ...(onLog === undefined ? {} : { onLog }),
    };
    return await runSimulation(scenario, {
      ...rest,
      // The template's tables hold the state, and Nodesmith is its bundles' processes.
      state: await deployedStateStore(deployment),
      deploy: (world) => DeployedNodesmith.deploy(world, deployment),
    });
  } finally {
    await dynamodb.stop();
  }
}

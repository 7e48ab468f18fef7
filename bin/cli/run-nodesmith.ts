/**
 * The nodesmith command line as a function of its arguments: `bin/nodesmith.ts` runs it with
 * `process.argv`, and the tests that plan many inputs run it without a process each. Output goes
 * to `process.stdout` and `process.stderr`; the result is the exit status.
 */
import { Command, CommanderError } from 'commander';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';
import { isPortError } from '../../functions/ports/errors.ts';
import { ApiRefusal } from './api-call.ts';
import { UsageError } from './usage-error.ts';

type AddCommand = (program: Command) => void;

/**
 * Each command's module, in the order help lists them, loaded only when needed: `plan` has no use
 * for the simulator, the Kubernetes client or the AWS SDKs, and loading them all cost it more
 * than reading a 5,000-pod file.
 */
const COMMANDS: Readonly<Record<string, () => Promise<AddCommand>>> = {
  plan: async () => (await import('./plan-command.ts')).addPlanCommand,
  disruption: async () => (await import('./disruption-command.ts')).addDisruptionCommand,
  simulate: async () => (await import('./simulate-command.ts')).addSimulateCommand,
  pools: async () => (await import('./pools/pools-command.ts')).addPoolsCommand,
  limits: async () => (await import('./limits-command.ts')).addLimitsCommand,
};

/**
 * A new program each run: commander keeps the options it parsed on its commands. The command
 * `argv` names is the only one added; help, and anything else, gets them all.
 */
async function makeProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('nodesmith')
    .description('A serverless node autoscaler for Kubernetes on AWS that speaks Karpenter.')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  const named = Object.hasOwn(COMMANDS, argv[2] ?? '') ? COMMANDS[argv[2] ?? ''] : undefined;
  const loads = named === undefined ? Object.values(COMMANDS) : [named];
  for (const add of await Promise.all(loads.map((load) => load()))) add(program);
  return program;
}

/** The exit status for what a command threw, after writing its one line to stderr. */
function statusOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (error instanceof ApiRefusal) {
    process.stderr.write(`nodesmith: ${error.message}\n`);
    return error.status < 500 ? 2 : 1;
  }
  if (error instanceof ManifestError || error instanceof UsageError || isPortError(error)) {
    process.stderr.write(`nodesmith: ${error.message.split('\n')[0]}\n`);
    return 2;
  }
  // Anything else is unexpected: one line for people, the stack when asked for.
  const detail = error instanceof Error ? error.message : String(error);
  process.stderr.write(`nodesmith: ${detail}\n`);
  if (process.env.NODESMITH_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
  return 1;
}

/**
 * Runs the command `argv` names (shaped as `process.argv`: node, script, then the arguments) and
 * resolves to its exit status: a command's own `process.exitCode`, else 0, or that of its error.
 */
export async function runNodesmith(argv: readonly string[]): Promise<number> {
  try {
    await (await makeProgram(argv)).parseAsync([...argv]);
    return Number(process.exitCode ?? 0);
  } catch (error) {
    return statusOf(error);
  }
}

/**
 * The nodesmith command line. Bad input (unreadable files, invalid documents, wrong options)
 * ends with one line on stderr naming the file, line and field, and exit status 2.
 */
import { Command, CommanderError } from 'commander';
import { ManifestError } from '../functions/manifests/manifest-error.ts';
import { isPortError } from '../functions/ports/errors.ts';
import { ApiRefusal } from './cli/api-call.ts';
import { addDisruptionCommand } from './cli/disruption-command.ts';
import { addLimitsCommand } from './cli/limits-command.ts';
import { addPlanCommand } from './cli/plan-command.ts';
import { addPoolsCommand } from './cli/pools/pools-command.ts';
import { addSimulateCommand } from './cli/simulate-command.ts';
import { UsageError } from './cli/usage-error.ts';

const program = new Command('nodesmith')
  .description('A serverless node autoscaler for Kubernetes on AWS that speaks Karpenter.')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

addPlanCommand(program);
addDisruptionCommand(program);
addSimulateCommand(program);
addPoolsCommand(program);
addLimitsCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof ApiRefusal) {
    process.stderr.write(`nodesmith: ${error.message}\n`);
    process.exitCode = error.status < 500 ? 2 : 1;
  } else if (error instanceof ManifestError || error instanceof UsageError || isPortError(error)) {
    process.stderr.write(`nodesmith: ${error.message.split('\n')[0]}\n`);
    process.exitCode = 2;
  } else {
    // Anything else is unexpected: one line for people, the stack when asked for.
    const detail = error instanceof Error ? error.message : String(error);
    process.stderr.write(`nodesmith: ${detail}\n`);
    if (process.env.NODESMITH_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    process.exitCode = 1;
  }
}

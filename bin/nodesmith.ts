/**
 * The nodesmith command line. Bad input (unreadable files, invalid documents, wrong options)
 * ends with one line on stderr naming the file, line and field, and exit status 2.
 */
import { Command, CommanderError } from 'commander';
import { ManifestError } from '../functions/manifests/manifest-error.ts';
import { addPlanCommand } from './cli/plan-command.ts';
import { UsageError } from './cli/usage-error.ts';

const program = new Command('nodesmith')
  .description('A serverless node autoscaler for Kubernetes on AWS that speaks Karpenter.')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

addPlanCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof ManifestError || error instanceof UsageError) {
    process.stderr.write(`nodesmith: ${error.message.split('\n')[0]}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}

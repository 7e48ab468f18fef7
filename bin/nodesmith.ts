/**
 * The nodesmith command line. Bad input (unreadable files, invalid documents, wrong options)
 * ends with one line on stderr naming the file, line and field, and exit status 2.
 */
import { runNodesmith } from './cli/run-nodesmith.ts';

process.exitCode = await runNodesmith(process.argv);

/**
 * The stack as `cdk synth` writes it for the deployed tests, from the cache shared by every test
 * file and run: synthesized once for a given lib/, functions/ and context (about 13 s on two
 * cores), read back in milliseconds after that.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type SynthesizedStack,
  synthesizedStack,
} from '../../simulator/synthesis/synthesized-stack.ts';
import { EKS_CONTEXT } from '../lib/stack-fixture.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SYNTH_CACHE = join(tmpdir(), 'nodesmith-synth');

/** The EKS deployment of test/lib/stack-fixture.ts, with the audit log subscription. */
export function synthesizedForTests(): SynthesizedStack {
  return synthesizedStack({
    projectRoot: PROJECT_ROOT,
    cacheRoot: SYNTH_CACHE,
    context: EKS_CONTEXT,
  });
}

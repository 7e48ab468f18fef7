/**
 * The template's functions as the simulated account runs them: one `LambdaFunction` per
 * function whose bundle the cloud assembly holds, each with its role's own keys, all sharing the
 * machine's cores.
 */
import type { SynthesizedStack } from '../synthesis/synthesized-stack.ts';
import type { ContainerOptions } from './container.ts';
import { functionDefinitions } from './function-definition.ts';
import type { RoleCredentials } from './lambda-environment.ts';
import { LambdaFunction } from './lambda-function.ts';
import { SharedCores } from './shared-cores.ts';
import type { ResolveValue } from './template-resolver.ts';

export interface LambdaFunctionsOptions extends Omit<ContainerOptions, 'credentials' | 'onLog'> {
  readonly resolve: ResolveValue;
  /** The keys of the function's role, by the function's logical id. */
  readonly credentialsOf: (logicalId: string) => RoleCredentials;
  readonly onLog?: (logicalId: string, line: string) => void;
}

export function lambdaFunctions(
  stack: Pick<SynthesizedStack, 'template' | 'functions'>,
  options: LambdaFunctionsOptions,
): Record<string, LambdaFunction> {
  const definitions = functionDefinitions(stack.template, stack.functions, options.resolve);
  const cores = new SharedCores();
  return Object.fromEntries(
    Object.entries(definitions).map(([id, definition]) => [
      id,
      new LambdaFunction(definition, {
        ...options,
        cores,
        credentials: options.credentialsOf(id),
        onLog: (line) => options.onLog?.(id, line),
      }),
    ]),
  );
}

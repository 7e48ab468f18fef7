/**
 * A function's settings, read from the environment the stack sets (functions/contract names its
 * variables; Lambda adds `AWS_REGION`). A required setting that is missing stops the function as
 * it starts, naming the function and the variable, so a broken deployment fails its first
 * invocation with the cause rather than later with a symptom. An empty variable counts as missing.
 */
import type { VariableName } from '../../contract/environment.ts';

type Name = VariableName | 'AWS_REGION';

export interface FunctionEnvironment {
  /** @throws Error `starting <function>: <NAME> is not set` */
  required(name: Name): string;
  optional(name: Name): string | undefined;
}

/** `starting` names the function in errors: `the controller`, `the API`. */
export function functionEnvironment(starting: string): FunctionEnvironment {
  const optional = (name: Name) => process.env[name] || undefined;
  return {
    optional,
    required(name) {
      const value = optional(name);
      if (value === undefined) throw new Error(`starting ${starting}: ${name} is not set`);
      return value;
    },
  };
}

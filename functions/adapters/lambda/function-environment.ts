/**
 * A function's settings, read from the environment the stack sets. A required setting that is
 * missing stops the function as it starts, naming the function and the variable, so a broken
 * deployment fails its first invocation with the cause rather than later with a symptom. An empty
 * variable counts as missing.
 */
export interface FunctionEnvironment {
  /** @throws Error `starting <function>: <NAME> is not set` */
  required(name: string): string;
  optional(name: string): string | undefined;
}

/** `starting` names the function in errors: `the controller`, `the API`. */
export function functionEnvironment(starting: string): FunctionEnvironment {
  const optional = (name: string) => process.env[name] || undefined;
  return {
    optional,
    required(name) {
      const value = optional(name);
      if (value === undefined) throw new Error(`starting ${starting}: ${name} is not set`);
      return value;
    },
  };
}

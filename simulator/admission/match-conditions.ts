/**
 * A webhook's `matchConditions`, compiled as kube-apiserver compiles them: CEL over the variables
 * `object`, `oldObject`, `request` and `authorizer`, each expression type-checked to a bool
 * (Kubernetes documentation, "Dynamic Admission Control", "Matching requests: matchConditions").
 * Evaluated in order: any false skips the webhook, all true calls it, and an error (none false)
 * is the failure policy's to decide.
 */
import { Environment } from '@marcbachmann/cel-js';

const environment = new Environment({ unlistedVariablesAreDyn: false })
  .registerVariable('object', 'dyn')
  .registerVariable('oldObject', 'dyn')
  .registerVariable('request', 'dyn')
  .registerVariable('authorizer', 'dyn');

export interface MatchVariables {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly request: unknown;
}

export type MatchOutcome = 'match' | 'skip' | { readonly error: string };

export interface CompiledConditions {
  evaluate(variables: MatchVariables): MatchOutcome;
}

/** Throws, naming the condition, when an expression does not compile to a bool. */
export function compileMatchConditions(
  conditions: readonly { name: string; expression: string }[],
): CompiledConditions {
  const compiled = conditions.map(({ name, expression }) => {
    const checked = environment.check(expression);
    if (!checked.valid) throw new Error(`matchConditions ${name}: ${checked.error?.message}`);
    if (checked.type !== 'bool') {
      throw new Error(`matchConditions ${name}: must evaluate to bool, not ${checked.type}`);
    }
    return { name, run: environment.parse(expression) };
  });
  return {
    evaluate(variables) {
      let error: string | undefined;
      for (const { name, run } of compiled) {
        try {
          if (run({ ...variables, authorizer: {} }) !== true) return 'skip';
        } catch (err) {
          error ??= `matchConditions ${name}: ${(err as Error).message.split('\n')[0]}`;
        }
      }
      return error === undefined ? 'match' : { error };
    },
  };
}

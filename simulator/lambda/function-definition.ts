/**
 * A function as the template defines it and Lambda would run it: its name, code, handler,
 * runtime, memory, timeout, reserved concurrency, role, log group and environment, with every
 * reference resolved against the simulated account.
 */
import type { CloudFormationTemplate, FunctionAsset } from '../synthesis/cloud-assembly.ts';
import type { ResolveValue } from './template-resolver.ts';

export interface FunctionDefinition {
  readonly logicalId: string;
  readonly functionName: string;
  readonly functionArn: string;
  /** The bundle's directory: the task root. */
  readonly codeDirectory: string;
  /** `file.export`. */
  readonly handler: string;
  /** `nodejs22.x`. */
  readonly runtime: string;
  readonly memorySize: number;
  readonly timeoutSeconds: number;
  /** Absent when the function reserves none: the account's unreserved pool. */
  readonly reservedConcurrency: number | undefined;
  readonly roleArn: string;
  readonly logGroupName: string;
  /** `JSON` or `Text`. */
  readonly logFormat: string;
  /** The template's `Environment.Variables`, resolved. */
  readonly environment: Readonly<Record<string, string>>;
}

/** Lambda's defaults for what a template leaves out. */
const DEFAULT_MEMORY_MB = 128;
const DEFAULT_TIMEOUT_S = 3;

function resolvedVariables(
  properties: Readonly<Record<string, unknown>>,
  resolve: ResolveValue,
): Record<string, string> {
  const environment = properties.Environment as { Variables?: Record<string, unknown> } | undefined;
  return Object.fromEntries(
    Object.entries(environment?.Variables ?? {}).map(([name, value]) => [name, resolve(value)]),
  );
}

/** Every function of the template whose code the cloud assembly holds, by logical id. */
export function functionDefinitions(
  template: CloudFormationTemplate,
  assets: Readonly<Record<string, FunctionAsset>>,
  resolve: ResolveValue,
): Record<string, FunctionDefinition> {
  const definitions: Record<string, FunctionDefinition> = {};
  for (const [logicalId, asset] of Object.entries(assets)) {
    const properties = template.Resources[logicalId]?.Properties ?? {};
    const functionName = resolve({ Ref: logicalId });
    const logging = properties.LoggingConfig as
      | { LogFormat?: string; LogGroup?: unknown }
      | undefined;
    definitions[logicalId] = {
      logicalId,
      functionName,
      functionArn: resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] }),
      codeDirectory: asset.directory,
      handler: asset.handler,
      runtime: String(properties.Runtime ?? ''),
      memorySize: Number(properties.MemorySize ?? DEFAULT_MEMORY_MB),
      timeoutSeconds: Number(properties.Timeout ?? DEFAULT_TIMEOUT_S),
      reservedConcurrency:
        properties.ReservedConcurrentExecutions === undefined
          ? undefined
          : Number(properties.ReservedConcurrentExecutions),
      roleArn: resolve(properties.Role),
      logGroupName:
        logging?.LogGroup === undefined ? `/aws/lambda/${functionName}` : resolve(logging.LogGroup),
      logFormat: logging?.LogFormat ?? 'Text',
      environment: resolvedVariables(properties, resolve),
    };
  }
  return definitions;
}

/**
 * A function invoked asynchronously, as CloudWatch Logs, S3 or SNS invoke it: Lambda retries a
 * failed invocation `MaximumRetryAttempts` times (the template's `AWS::Lambda::EventInvokeConfig`,
 * else 2), then sends the invocation record to the `OnFailure` destination (AWS Lambda Developer
 * Guide, "Asynchronous invocation"). Lambda waits a minute, then two, between the attempts; here
 * they follow one another at once, since nothing in the simulated world runs in between.
 */
import { randomUUID } from 'node:crypto';
import type { CloudFormationTemplate } from '../synthesis/cloud-assembly.ts';
import type { ResolveValue } from './template-resolver.ts';

export interface AsyncInvokeConfig {
  readonly maximumRetryAttempts: number;
  /** The ARN of the queue, topic, bus or function failed invocations go to. */
  readonly onFailure?: string;
}

const LAMBDA_DEFAULT: AsyncInvokeConfig = { maximumRetryAttempts: 2 };

/** Each function's asynchronous invocation settings, by its logical id. */
export function asyncInvokeConfigs(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
): (functionLogicalId: string) => AsyncInvokeConfig {
  const configs = new Map<string, AsyncInvokeConfig>();
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::EventInvokeConfig') continue;
    const p = resource.Properties ?? {};
    const onFailure = (p.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined)
      ?.OnFailure?.Destination;
    configs.set(String((p.FunctionName as { Ref?: string }).Ref), {
      maximumRetryAttempts: Number(p.MaximumRetryAttempts ?? LAMBDA_DEFAULT.maximumRetryAttempts),
      ...(onFailure === undefined ? {} : { onFailure: resolve(onFailure) }),
    });
  }
  return (functionLogicalId) => configs.get(functionLogicalId) ?? LAMBDA_DEFAULT;
}

/** The record an `OnFailure` destination gets: the request, and how its last attempt ended. */
export function failureRecord(
  functionArn: string,
  event: unknown,
  attempts: number,
  error: unknown,
  nowMs: number,
) {
  const payload = error as { errorType?: string; errorMessage?: string; message?: string };
  return {
    version: '1.0',
    timestamp: new Date(nowMs).toISOString(),
    requestContext: {
      requestId: randomUUID(),
      functionArn: `${functionArn}:$LATEST`,
      condition: 'RetriesExhausted',
      approximateInvokeCount: attempts,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: {
      errorType: payload.errorType ?? 'Error',
      errorMessage: payload.errorMessage ?? payload.message ?? String(error),
    },
  };
}

/** Attempts the invocation up to 1 + the retries; resolves with how many attempts it took. */
export async function invokeAsync(options: {
  readonly invoke: (event: unknown) => Promise<unknown>;
  readonly event: unknown;
  readonly config: AsyncInvokeConfig;
  readonly functionArn: string;
  readonly now: () => number;
  /** Sends the record to the `OnFailure` destination. */
  readonly onFailure: (destinationArn: string, record: unknown) => void;
}): Promise<{ attempts: number; succeeded: boolean }> {
  const { config } = options;
  let lastError: unknown;
  for (let attempt = 1; attempt <= config.maximumRetryAttempts + 1; attempt++) {
    try {
      await options.invoke(options.event);
      return { attempts: attempt, succeeded: true };
    } catch (error) {
      lastError = error;
    }
  }
  const attempts = config.maximumRetryAttempts + 1;
  if (config.onFailure !== undefined) {
    const record = failureRecord(
      options.functionArn,
      options.event,
      attempts,
      lastError,
      options.now(),
    );
    options.onFailure(config.onFailure, record);
  }
  return { attempts, succeeded: false };
}

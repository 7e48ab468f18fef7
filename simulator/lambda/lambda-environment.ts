/**
 * The environment a function's process starts with: exactly the template's variables, plus what
 * Lambda's Node.js runtime sets (AWS Lambda Developer Guide, "Defined runtime environment
 * variables"), the role's keys and the SDK's endpoint setting (`AWS_ENDPOINT_URL`) pointing every
 * client at the simulated account. Nothing of the parent's environment is passed on.
 */
import type { FunctionDefinition } from './function-definition.ts';

/** The keys a function's process signs with: its role's, one key per function. */
export interface RoleCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
}

export interface ContainerSettings {
  readonly region: string;
  readonly credentials: RoleCredentials;
  /** The simulated account's endpoint: `http://127.0.0.1:<port>`. */
  readonly endpointUrl: string;
  /**
   * Services answered elsewhere, by the SDK's service id: `{ DYNAMODB: <DynamoDB Local> }`
   * becomes `AWS_ENDPOINT_URL_DYNAMODB`, which the SDK prefers to `AWS_ENDPOINT_URL`.
   */
  readonly serviceEndpoints?: Readonly<Record<string, string>>;
  /** `127.0.0.1:<port>` of the container's Runtime API. */
  readonly runtimeApi: string;
  /** The container's log stream, as Lambda names it: `2026/11/27/[$LATEST]<id>`. */
  readonly logStreamName: string;
}

/** The Lambda runtime's own PATH; the process is started from this Node.js, not looked up. */
const LAMBDA_PATH = '/var/lang/bin:/usr/local/bin:/usr/bin/:/bin:/opt/bin';

export function lambdaEnvironment(
  definition: FunctionDefinition,
  settings: ContainerSettings,
): Record<string, string> {
  const { credentials } = settings;
  return {
    ...definition.environment,
    AWS_REGION: settings.region,
    AWS_DEFAULT_REGION: settings.region,
    AWS_LAMBDA_FUNCTION_NAME: definition.functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(definition.memorySize),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: definition.logGroupName,
    AWS_LAMBDA_LOG_STREAM_NAME: settings.logStreamName,
    ...(definition.logFormat === 'JSON' ? { AWS_LAMBDA_LOG_FORMAT: 'JSON' } : {}),
    AWS_EXECUTION_ENV: `AWS_Lambda_${definition.runtime}`,
    AWS_LAMBDA_RUNTIME_API: settings.runtimeApi,
    LAMBDA_TASK_ROOT: definition.codeDirectory,
    _HANDLER: definition.handler,
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    PATH: LAMBDA_PATH,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: credentials.sessionToken,
    AWS_ENDPOINT_URL: settings.endpointUrl,
    ...Object.fromEntries(
      Object.entries(settings.serviceEndpoints ?? {}).map(([service, url]) => [
        `AWS_ENDPOINT_URL_${service}`,
        url,
      ]),
    ),
  };
}

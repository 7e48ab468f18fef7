/**
 * The simulated account's endpoint (simulator/aws/endpoint.ts) for one service's tests: the
 * services given, the one test key held by the world itself, no authorizer. The unchanged SDK
 * clients reach it through their `endpoint` setting.
 */
import type { AwsService } from '../../simulator/aws/aws-service.ts';
import { startAwsEndpoint } from '../../simulator/aws/endpoint.ts';

export const TEST_REGION = 'us-east-1';
export const TEST_CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };

export interface AwsTestEndpoint {
  readonly url: string;
  /** What a client needs to reach it: `new SQSClient(endpoint.clientConfig)`. */
  readonly clientConfig: {
    endpoint: string;
    region: string;
    credentials: typeof TEST_CREDENTIALS;
    maxAttempts: number;
  };
  close(): Promise<void>;
}

export async function startAwsTestEndpoint(
  services: readonly AwsService[],
): Promise<AwsTestEndpoint> {
  const endpoint = await startAwsEndpoint({
    services,
    credentials: { [TEST_CREDENTIALS.accessKeyId]: {} },
  });
  return {
    url: endpoint.url,
    clientConfig: {
      endpoint: endpoint.url,
      region: TEST_REGION,
      credentials: TEST_CREDENTIALS,
      maxAttempts: 1,
    },
    close: () => endpoint.close(),
  };
}

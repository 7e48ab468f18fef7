/**
 * Where the deployed stack lives in the simulation: one account in one region, and the stack's
 * name that CloudFormation puts in the names it makes up.
 */
export interface SimulatedAccount {
  readonly partition: string;
  readonly region: string;
  readonly accountId: string;
  /** `AWS::URLSuffix`: `amazonaws.com` outside China. */
  readonly urlSuffix: string;
  readonly stackName: string;
  /**
   * Where queue URLs point: SQS's regional endpoint when absent. The SDK sends each SQS call to
   * the host of its `QueueUrl`, not to `AWS_ENDPOINT_URL_SQS`, so in the deployed simulation the
   * URLs the functions are given name the simulated endpoint, as AWS's name AWS's.
   */
  readonly sqsEndpoint?: string;
}

export function simulatedAccount(overrides: Partial<SimulatedAccount> = {}): SimulatedAccount {
  return {
    partition: 'aws',
    region: 'us-east-1',
    accountId: '111122223333',
    urlSuffix: 'amazonaws.com',
    stackName: 'Nodesmith',
    ...overrides,
  };
}

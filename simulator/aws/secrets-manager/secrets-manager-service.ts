/**
 * Secrets Manager over its JSON protocol (awsJson1_1, `X-Amz-Target: secretsmanager.<Operation>`):
 * GetSecretValue, the one call the functions make.
 */
import type { AwsService } from '../aws-service.ts';
import { jsonRpcService } from '../json/json-rpc-service.ts';
import type { SimulatedSecrets } from './simulated-secrets.ts';

export function secretsManagerService(secrets: SimulatedSecrets): AwsService {
  return jsonRpcService({
    signingName: 'secretsmanager',
    actionPrefix: 'secretsmanager',
    target: 'secretsmanager',
    jsonVersion: '1.1',
    operations: {
      GetSecretValue: (input) => {
        const secret = secrets.get(String(input.SecretId ?? ''));
        return {
          ARN: secret.arn,
          Name: secret.name,
          VersionId: secret.versionId,
          SecretString: secret.value,
          VersionStages: ['AWSCURRENT'],
          // The JSON protocols send timestamps as epoch seconds.
          CreatedDate: secret.createdAt / 1000,
        };
      },
    },
  });
}

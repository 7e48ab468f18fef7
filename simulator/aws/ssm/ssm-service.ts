/**
 * SSM over its JSON protocol (awsJson1_1, `X-Amz-Target: AmazonSSM.<Operation>`): GetParameter,
 * the one call the functions make.
 */
import type { AwsService } from '../aws-service.ts';
import { jsonRpcService } from '../json/json-rpc-service.ts';
import type { SimulatedParameters } from './simulated-parameters.ts';

export function ssmService(
  parameters: SimulatedParameters,
  region: string,
  account: string,
): AwsService {
  return jsonRpcService({
    signingName: 'ssm',
    actionPrefix: 'ssm',
    target: 'AmazonSSM',
    jsonVersion: '1.1',
    operations: {
      GetParameter: (input) => {
        const parameter = parameters.get(String(input.Name ?? ''));
        // Public parameters live in AWS's account; an ARN's path keeps the name's leading slash once.
        const owner = parameter.name.startsWith('/aws/service/') ? '' : account;
        const path = parameter.name.replace(/^\//, '');
        return {
          Parameter: {
            Name: parameter.name,
            Type: 'String',
            Value: parameter.value,
            Version: parameter.version,
            // The JSON protocols send timestamps as epoch seconds.
            LastModifiedDate: parameter.lastModified / 1000,
            ARN: `arn:aws:ssm:${region}:${owner}:parameter/${path}`,
            DataType: parameter.dataType,
          },
        };
      },
    },
  });
}

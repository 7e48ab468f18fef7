/**
 * The simulated SSM through the unchanged SDK client and the functions' SSM parameter reader: the
 * AMI alias parameters name the simulated cloud's images, one per architecture and variant, the
 * same the in-process cloud resolves an alias to.
 */
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasParameters } from '../../../../functions/adapters/ec2/ami-aliases.ts';
import { SsmParameters } from '../../../../functions/adapters/ec2/ssm-parameters.ts';
import { SimulatedParameters } from '../../../../simulator/aws/ssm/simulated-parameters.ts';
import { ssmService } from '../../../../simulator/aws/ssm/ssm-service.ts';
import { simulatedAmi } from '../../../../simulator/cloud/simulated-cloud.ts';
import { simulatedImage } from '../../../../simulator/cloud/simulated-images.ts';
import { aNodeClass } from '../../../adapters/ec2/support.ts';
import {
  type AwsTestEndpoint,
  startAwsTestEndpoint,
  TEST_REGION,
} from '../../../support/aws-test-endpoint.ts';

const K8S = '1.31';
const now = () => new Date('2026-11-27T08:00:00Z');
let parameters: SimulatedParameters;
let endpoint: AwsTestEndpoint;
let client: SSMClient;

beforeAll(async () => {
  parameters = new SimulatedParameters(() => now().getTime());
  endpoint = await startAwsTestEndpoint([ssmService(parameters, TEST_REGION, '111122223333')]);
  client = new SSMClient(endpoint.clientConfig);
});

afterAll(async () => {
  client.destroy();
  await endpoint.close();
});

/** What the AMI resolver reads for an alias: each parameter's value, through the adapter. */
async function resolved(alias: string) {
  const reader = new SsmParameters(client, now);
  return Promise.all(
    aliasParameters(alias, K8S).map(async ({ architecture, variant, path }) => {
      const image = simulatedImage((await reader.get(path)) ?? '');
      return {
        architecture,
        variant,
        image: [image?.architecture, image?.variant, image?.version],
      };
    }),
  );
}

describe('the simulated SSM', () => {
  it.each([
    ['al2023@latest', 'latest'],
    ['al2023@v20260301', 'v20260301'],
    ['al2@latest', 'latest'],
    ['al2@v20250915', 'v20250915'],
    ['bottlerocket@1.20.4', '1.20.4'],
    ['bottlerocket@v1.20.4', '1.20.4'],
  ])(
    'answers every parameter of %s with an image of its architecture and variant',
    async (alias, version) => {
      // Prepare: the parameters the alias names

      // Act
      const images = await resolved(alias);

      // Assess
      for (const { architecture, variant, image } of images) {
        // Bottlerocket's standard image also serves Neuron, and AL2's GPU image does.
        const neuronImage = alias.startsWith('bottlerocket') ? 'standard' : 'nvidia';
        const sharesImage = !alias.startsWith('al2023') && variant === 'neuron';
        const published = sharesImage ? neuronImage : variant;
        expect(image).toEqual([architecture, published, version]);
      }
    },
  );

  it('answers the Windows alias with its own image', async () => {
    // Prepare: the one parameter of the alias

    // Act
    const images = await resolved('windows2022@latest');

    // Assess
    expect(images).toEqual([
      { architecture: 'amd64', variant: 'standard', image: ['amd64', 'standard', 'latest'] },
    ]);
  });

  it('names the image the in-process cloud resolves the same alias to', async () => {
    // Prepare
    const reader = new SsmParameters(client, now);
    const [amd64Standard] = aliasParameters('al2023@v20260301', K8S);

    // Act
    const id = await reader.get(amd64Standard?.path ?? '');

    // Assess
    expect(id).toBe(
      simulatedAmi(aNodeClass({ amiSelectorTerms: [{ alias: 'al2023@v20260301' }] })),
    );
  });

  it('answers GetParameter in its shape, and a parameter the world put', async () => {
    // Prepare
    parameters.put('/shop/nodes/ami', 'ami-0123456789abcdef0');

    // Act
    const published = await client.send(
      new GetParameterCommand({
        Name: `/aws/service/eks/optimized-ami/${K8S}/amazon-linux-2023/x86_64/standard/recommended/image_id`,
      }),
    );
    const put = await client.send(new GetParameterCommand({ Name: '/shop/nodes/ami' }));

    // Assess
    expect(published.Parameter).toMatchObject({
      Type: 'String',
      Value: 'ami-sim-al2023',
      DataType: 'aws:ec2:image',
    });
    expect(put.Parameter).toMatchObject({
      Name: '/shop/nodes/ami',
      Value: 'ami-0123456789abcdef0',
      Version: 1,
      ARN: 'arn:aws:ssm:us-east-1:111122223333:parameter/shop/nodes/ami',
      LastModifiedDate: now(),
    });
  });

  it('answers ParameterNotFound for others, which the reader takes as an unpublished variant', async () => {
    // Prepare: EKS publishes no AL2 image for Kubernetes 1.33
    const name = '/aws/service/eks/optimized-ami/1.33/amazon-linux-2/recommended/image_id';

    // Act
    const direct = await client
      .send(new GetParameterCommand({ Name: name }))
      .catch((err: unknown) => err);
    const read = await new SsmParameters(client, now).get(name);

    // Assess
    expect(direct).toBeInstanceOf(ParameterNotFound);
    expect(read).toBeUndefined();
  });
});

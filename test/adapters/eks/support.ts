/**
 * Shared set-up for the EKS adapter tests: fixed credentials and a clock the tests move, mocked
 * clients, SDK errors as the clients throw them, and a SigV4 check written from the algorithm's
 * description, independent of the signer the adapter uses.
 */
import { createHash, createHmac } from 'node:crypto';
import { EKSClient, EKSServiceException } from '@aws-sdk/client-eks';
import {
  SecretsManagerClient,
  SecretsManagerServiceException,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import type { AwsCredentials } from '../../../functions/adapters/eks/clients.ts';
import { TOKEN_PREFIX } from '../../../functions/adapters/eks/eks-token.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export { aClock, MINUTE, SECOND } from '../../support/clock.ts';

export const CLUSTER_NAME = 'prod';
export const REGION = 'us-west-2';
export const SECRET_ID = 'nodesmith/prod/cluster-access';

/** AWS's documentation example keys; the session token has the characters that need escaping. */
export const CREDENTIALS: AwsCredentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE/session+token==',
};

/** A credential provider that counts its calls and can hand out other keys. */
export function aCredentialProvider(credentials: AwsCredentials = CREDENTIALS) {
  const provider = {
    calls: 0,
    credentials,
    get: async (): Promise<AwsCredentials> => {
      provider.calls += 1;
      return provider.credentials;
    },
  };
  return provider;
}

const PEM = '-----BEGIN CERTIFICATE-----\nMIIC/zCCAeegAwIBAgIIEXAMPLE\n-----END CERTIFICATE-----\n';
export const CA_DATA = Buffer.from(PEM).toString('base64');
export const ENDPOINT = 'https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com';

export function mockedClients() {
  const eks = new EKSClient({ region: REGION });
  const secrets = new SecretsManagerClient({ region: REGION });
  return { eks, secrets, eksMock: mockClient(eks), secretsMock: mockClient(secrets) };
}

/** DescribeCluster's answer for an active cluster, trimmed to what matters here. */
export function describedCluster(overrides: Record<string, unknown> = {}) {
  return {
    cluster: {
      name: CLUSTER_NAME,
      arn: `arn:aws:eks:${REGION}:123456789012:cluster/${CLUSTER_NAME}`,
      version: '1.31',
      endpoint: ENDPOINT,
      certificateAuthority: { data: CA_DATA },
      status: 'ACTIVE' as const,
      accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' as const },
      ...overrides,
    },
  };
}

/** An error as the EKS client throws it for an error code in the response. */
export function eksError(code: string, message = code): EKSServiceException {
  return new EKSServiceException({
    name: code,
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message,
  });
}

export function secretsError(code: string, message = code): SecretsManagerServiceException {
  return new SecretsManagerServiceException({
    name: code,
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message,
  });
}

/** The presigned URL inside a token. */
export function decodeToken(token: string): string {
  if (!token.startsWith(TOKEN_PREFIX)) throw new Error(`not an eks token: ${token.slice(0, 20)}`);
  return Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8');
}

/** RFC 3986, as SigV4 canonicalises query names and values. */
function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${escapeUri(name)}=${escapeUri(value)}`)
    .sort()
    .join('&');
}

const hmac = (key: Buffer | string, data: string): Buffer =>
  createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string): string => createHash('sha256').update(data).digest('hex');

/**
 * The SigV4 signature STS computes for a presigned GET (AWS General Reference, "Create a signed
 * AWS API request"): the canonical request from the URL and the headers the verifier sends with
 * it, signed with a key derived from the secret, the date, the region and the service.
 */
export function expectedSignature(
  presignedUrl: string,
  secretAccessKey: string,
  headers: Readonly<Record<string, string>>,
): string {
  const url = new URL(presignedUrl);
  const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders') ?? '';
  const all: Record<string, string> = { host: url.host, ...headers };
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${all[name] ?? ''}\n`)
    .join('');
  const emptyBodyHash = sha256Hex('');
  const canonicalRequest = [
    'GET',
    url.pathname,
    canonicalQuery(url),
    canonicalHeaders,
    signedHeaders,
    emptyBodyHash,
  ].join('\n');
  const [, date = '', region = '', service = '', terminal = ''] = (
    url.searchParams.get('X-Amz-Credential') ?? ''
  ).split('/');
  const scope = [date, region, service, terminal].join('/');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    url.searchParams.get('X-Amz-Date') ?? '',
    scope,
    sha256Hex(canonicalRequest),
  ].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service),
    terminal,
  );
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}

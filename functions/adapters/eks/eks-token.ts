/**
 * The bearer token EKS accepts from an IAM identity, made in code exactly as `aws eks get-token`
 * makes it (aws-cli: awscli/customizations/eks/get_token.py; kubernetes-sigs/aws-iam-authenticator:
 * pkg/token/token.go): a GET of STS GetCallerIdentity presigned with SigV4, the cluster's name in
 * the signed header `x-k8s-aws-id`, then `k8s-aws-v1.` + base64url of the URL without padding.
 * The API server replays the URL against STS to learn who signed it; the signed header binds the
 * token to one cluster, so it cannot be replayed against another.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { InvalidConfigError } from '../../ports/errors.ts';
import type { AwsCredentials } from './clients.ts';

export const TOKEN_PREFIX = 'k8s-aws-v1.';
export const CLUSTER_ID_HEADER = 'x-k8s-aws-id';
/** STS ignores it for this call; the CLI sends 60 and old authenticators insist on 0–60. */
export const PRESIGN_EXPIRES_SECONDS = 60;
/** STS honours the URL for 15 minutes after X-Amz-Date; like the CLI, report one minute less. */
export const TOKEN_LIFETIME_MS = 14 * 60_000;
/** The authenticator refuses longer tokens (`maxTokenLenBytes`). */
export const MAX_TOKEN_BYTES = 4096;

const SIGNATURE_PARAM = 'X-Amz-Signature';

export interface EksToken {
  readonly token: string;
  readonly signedAt: Date;
  /** Fourteen minutes after signing, or earlier when the signing credentials expire first. */
  readonly expiresAt: Date;
}

export interface EksTokenInput {
  readonly clusterName: string;
  readonly region: string;
  readonly credentials: AwsCredentials;
  readonly signingDate: Date;
}

/** STS's regional endpoint, as the CLI uses it; the China partition has its own domain. */
export function stsHostname(region: string): string {
  const domain = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `sts.${region}.${domain}`;
}

/** RFC 3986 encoding, as SigV4 canonicalises query values. */
function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function encodePair(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new Error(`presigning: parameter ${name} is not one string`);
  return `${escapeUri(name)}=${escapeUri(value)}`;
}

/** Parameters sorted by name with the signature last: the form the AWS CLI and SDKs emit. */
function toQueryString(query: HttpRequest['query']): string {
  const names = Object.keys(query)
    .filter((name) => name !== SIGNATURE_PARAM)
    .sort();
  return [...names, SIGNATURE_PARAM].map((name) => encodePair(name, query[name])).join('&');
}

/** The presigned `https://sts.<region>.amazonaws.com/?Action=GetCallerIdentity&…` URL. */
export async function presignGetCallerIdentity(input: EksTokenInput): Promise<string> {
  const hostname = stsHostname(input.region);
  const signer = new SignatureV4({
    service: 'sts',
    region: input.region,
    credentials: input.credentials,
    sha256: Sha256,
  });
  const request = new HttpRequest({
    method: 'GET',
    protocol: 'https:',
    hostname,
    path: '/',
    query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    // SigV4 signs every header it is given; neither starts with x-amz-, so neither is hoisted.
    headers: { host: hostname, [CLUSTER_ID_HEADER]: input.clusterName },
  });
  const signed = await signer.presign(request, {
    expiresIn: PRESIGN_EXPIRES_SECONDS,
    signingDate: input.signingDate,
  });
  return `https://${hostname}/?${toQueryString(signed.query ?? {})}`;
}

/** `k8s-aws-v1.` + base64url without padding (Go's RawURLEncoding). */
export function encodeToken(presignedUrl: string): string {
  return TOKEN_PREFIX + Buffer.from(presignedUrl, 'utf8').toString('base64url');
}

function expiryOf(input: EksTokenInput): Date {
  const lifetimeEnd = input.signingDate.getTime() + TOKEN_LIFETIME_MS;
  const credentialsEnd = input.credentials.expiration?.getTime() ?? Number.POSITIVE_INFINITY;
  return new Date(Math.min(lifetimeEnd, credentialsEnd));
}

export async function makeEksToken(input: EksTokenInput): Promise<EksToken> {
  const token = encodeToken(await presignGetCallerIdentity(input));
  const bytes = Buffer.byteLength(token);
  if (bytes > MAX_TOKEN_BYTES) {
    // Long session tokens (many session tags, chained roles) do this; the server would say only 401.
    throw new InvalidConfigError(
      `making an eks token for cluster ${input.clusterName}: it is ${bytes} bytes, over the ${MAX_TOKEN_BYTES} the authenticator accepts; the session token is too long`,
    );
  }
  return { token, signedAt: input.signingDate, expiresAt: expiryOf(input) };
}

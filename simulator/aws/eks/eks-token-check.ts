/**
 * What EKS's authenticator checks of a bearer token before the API server lets the caller in
 * (kubernetes-sigs/aws-iam-authenticator pkg/token/token.go `Verify`, which then replays the URL
 * against STS): the `k8s-aws-v1.` prefix over a presigned STS GetCallerIdentity URL for the
 * region, signed within the last fifteen minutes, its signed headers binding `x-k8s-aws-id` to
 * this cluster. STS's part, the signature, is checked here by signing the same request again
 * with the secret of the access key the credential scope names: a token for another cluster, or
 * signed with another secret, does not match.
 */
import {
  type EksTokenInput,
  presignGetCallerIdentity,
  stsHostname,
  TOKEN_PREFIX,
} from '../../../functions/adapters/eks/eks-token.ts';

/** STS honours a presigned URL for fifteen minutes after its X-Amz-Date. */
const VALID_FOR_MS = 15 * 60_000;
/** How far ahead of the account's time a signature may be, for clocks a little apart. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface EksTokenCheckOptions {
  readonly clusterName: string;
  readonly region: string;
  readonly now: () => number;
  /** The secret of an access key the account issued (and its session token); undefined for others. */
  readonly credentialsOf: (accessKeyId: string) => EksTokenInput['credentials'] | undefined;
}

/** The caller's access key when the token holds, or why it does not. */
export type EksTokenVerdict =
  | { readonly accepted: true; readonly accessKeyId: string }
  | { readonly accepted: false; readonly reason: string };

function refused(reason: string): EksTokenVerdict {
  return { accepted: false, reason };
}

/** `20261127T080000Z` as epoch milliseconds; NaN when it is not one. */
function amzDate(text: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (match === null) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match;
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

function presignedUrl(token: string, region: string): URL | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  try {
    const url = new URL(
      Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8'),
    );
    const query = url.searchParams;
    const isCallerIdentity = query.get('Action') === 'GetCallerIdentity' && url.pathname === '/';
    return url.hostname === stsHostname(region) && isCallerIdentity ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a token's signature matches, given the way to sign its request again: a function of
 * the token alone (its key's secret does not change), so it may be remembered per token.
 */
export type SignatureCheck = (token: string, matches: () => Promise<boolean>) => Promise<boolean>;

/** Signs again every time. */
const signEveryTime: SignatureCheck = (_token, matches) => matches();

/** Whether signing the same request with the key's secret gives the token's signature. */
async function signatureMatches(
  query: URLSearchParams,
  credentials: EksTokenInput['credentials'],
  signedAt: number,
  options: EksTokenCheckOptions,
): Promise<boolean> {
  const expected = await presignGetCallerIdentity({
    clusterName: options.clusterName,
    region: options.region,
    credentials: { ...credentials, sessionToken: query.get('X-Amz-Security-Token') ?? undefined },
    signingDate: new Date(signedAt),
  });
  return new URL(expected).searchParams.get('X-Amz-Signature') === query.get('X-Amz-Signature');
}

export async function checkEksToken(
  token: string,
  options: EksTokenCheckOptions,
  signatureCheck: SignatureCheck = signEveryTime,
): Promise<EksTokenVerdict> {
  const url = presignedUrl(token, options.region);
  if (url === undefined) return refused('not a presigned STS GetCallerIdentity URL for the region');
  const query = url.searchParams;
  const signedAt = amzDate(query.get('X-Amz-Date') ?? '');
  const age = options.now() - signedAt;
  if (!(age <= VALID_FOR_MS && age >= -CLOCK_SKEW_MS)) return refused('expired or not yet valid');
  if (!(query.get('X-Amz-SignedHeaders') ?? '').split(';').includes('x-k8s-aws-id')) {
    return refused('x-k8s-aws-id is not signed');
  }
  const accessKeyId = (query.get('X-Amz-Credential') ?? '').split('/')[0] ?? '';
  const credentials = options.credentialsOf(accessKeyId);
  if (credentials === undefined) return refused(`no such access key ${accessKeyId}`);
  const matches = () => signatureMatches(query, credentials, signedAt, options);
  return (await signatureCheck(token, matches))
    ? { accepted: true, accessKeyId }
    : refused('the signature does not match: another cluster, or another secret');
}

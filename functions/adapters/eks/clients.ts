/**
 * What the EKS adapter talks through, narrowed so tests can pass aws-sdk-client-mock and fixed
 * credentials while the composition root builds the real ones (docs/design.md §2.3).
 */
import type { EKSClient } from '@aws-sdk/client-eks';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SignatureV4Init } from '@smithy/signature-v4';

export type EksApi = Pick<EKSClient, 'send'>;
export type SecretsManagerApi = Pick<SecretsManagerClient, 'send'>;

/** Resolved AWS credentials (`AwsCredentialIdentity`): keys, session token, optional expiration. */
export type AwsCredentials = Exclude<SignatureV4Init['credentials'], (...args: never[]) => unknown>;

/**
 * Where signing credentials come from. Any `AwsCredentialIdentityProvider` fits, such as
 * `defaultProvider()` from `@aws-sdk/credential-provider-node`, which caches and renews the
 * Lambda role's credentials itself.
 */
export type CredentialProvider = () => Promise<AwsCredentials>;

/** The adapter's clock: every cache, timestamp and signature reads it, nothing calls `Date.now()`. */
export type { Now } from '../cache/ttl-cache.ts';

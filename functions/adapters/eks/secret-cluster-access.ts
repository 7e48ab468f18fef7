/**
 * Access to a self-managed cluster from a Secrets Manager secret (cluster-secret.ts), kept for
 * five minutes so that rotating the token in the secret reaches warm containers without reading
 * the secret on every pass.
 *
 * @example
 * const access = new SecretClusterAccess({ secrets: new SecretsManagerClient({}),
 *   secretId: 'nodesmith/prod/cluster-access', now: () => new Date() });
 */
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Now, SecretsManagerApi } from './clients.ts';
import type { ClusterAccess, ClusterAccessSource } from './cluster-access.ts';
import { parseClusterSecret } from './cluster-secret.ts';
import { toPortError } from './errors.ts';

export const SECRET_TTL_MS = 5 * 60_000;

export interface SecretClusterAccessOptions {
  readonly secrets: SecretsManagerApi;
  /** The secret's name or ARN. */
  readonly secretId: string;
  readonly now: Now;
  /** How long a read is kept. @default five minutes */
  readonly ttlMs?: number;
}

export class SecretClusterAccess implements ClusterAccessSource {
  readonly #options: SecretClusterAccessOptions;
  readonly #access: TtlCache<ClusterAccess>;

  constructor(options: SecretClusterAccessOptions) {
    this.#options = options;
    this.#access = new TtlCache(options.now);
  }

  /**
   * Rejects with NotFoundError when the secret does not exist, InvalidConfigError without
   * `secretsmanager:GetSecretValue` (or `kms:Decrypt` on its key) or when its JSON is unusable,
   * ThrottledError on throttling.
   */
  current(): Promise<ClusterAccess> {
    return this.#access.getOrLoadExpiring('', () => this.#read());
  }

  async #read(): Promise<{ value: ClusterAccess; replaceAt: Date }> {
    const { secrets, secretId, now } = this.#options;
    const readAt = now().getTime();
    const text = await secrets.send(new GetSecretValueCommand({ SecretId: secretId })).then(
      (output) => output.SecretString,
      (err: unknown) => {
        throw toPortError(err, {
          doing: `reading cluster access secret ${secretId}`,
          permission: 'secretsmanager:GetSecretValue',
        });
      },
    );
    const value = parseClusterSecret(text, secretId);
    return { value, replaceAt: new Date(readAt + (this.#options.ttlMs ?? SECRET_TTL_MS)) };
  }
}

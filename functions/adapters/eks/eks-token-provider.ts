/**
 * A cluster's bearer token, signed again only when the one in hand is close to expiry. Signing
 * is local and cheap, but a token handed out must outlive the pass that uses it: it is replaced
 * four minutes before its reported expiry, ten minutes after signing, so every token handed out
 * has at least four minutes left (five before STS refuses it). Credentials that expire sooner
 * bring the expiry forward; the provider is asked again for fresh ones then.
 *
 * @example
 * const tokens = new EksTokenProvider({ clusterName: 'prod', region: 'us-west-2',
 *   credentials: defaultProvider(), now: () => new Date() });
 * const { token } = await tokens.current();
 */
import { TtlCache } from '../cache/ttl-cache.ts';
import type { CredentialProvider, Now } from './clients.ts';
import { type EksToken, makeEksToken } from './eks-token.ts';

export const TOKEN_REFRESH_MARGIN_MS = 4 * 60_000;

export interface EksTokenProviderOptions {
  readonly clusterName: string;
  /** The cluster's region: the token is signed for that region's STS endpoint. */
  readonly region: string;
  readonly credentials: CredentialProvider;
  readonly now: Now;
}

export class EksTokenProvider {
  readonly #options: EksTokenProviderOptions;
  readonly #token: TtlCache<EksToken>;

  constructor(options: EksTokenProviderOptions) {
    this.#options = options;
    this.#token = new TtlCache(options.now);
  }

  /** A token with at least four minutes left; credential provider failures reject unchanged. */
  current(): Promise<EksToken> {
    return this.#token.getOrLoadExpiring('', () => this.#sign());
  }

  async #sign(): Promise<{ value: EksToken; replaceAt: Date }> {
    const { clusterName, region, now } = this.#options;
    const credentials = await this.#options.credentials();
    const token = await makeEksToken({ clusterName, region, credentials, signingDate: now() });
    return {
      value: token,
      replaceAt: new Date(token.expiresAt.getTime() - TOKEN_REFRESH_MARGIN_MS),
    };
  }
}

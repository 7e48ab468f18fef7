/**
 * The account's Secrets Manager secrets, text only (`SecretString`): the world puts them (the audit
 * relay's bearer token), the functions read them by name or by ARN. An ARN ends in `-` and six
 * characters Secrets Manager adds to the name; here they are derived from the name, so runs repeat.
 */
import { createHash } from 'node:crypto';
import { AwsError } from '../aws-service.ts';

export interface StoredSecret {
  readonly arn: string;
  readonly name: string;
  readonly value: string;
  readonly versionId: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

export interface SimulatedSecretsOptions {
  readonly region: string;
  readonly account: string;
  readonly now: () => number;
}

const SUFFIX_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function arnSuffix(name: string): string {
  const digest = createHash('sha256').update(name).digest();
  return [...digest.subarray(0, 6)]
    .map((b) => SUFFIX_CHARACTERS[b % SUFFIX_CHARACTERS.length])
    .join('');
}

export class SimulatedSecrets {
  readonly #options: SimulatedSecretsOptions;
  readonly #byName = new Map<string, StoredSecret>();
  #versions = 0;

  constructor(options: SimulatedSecretsOptions) {
    this.#options = options;
  }

  /** Creates the secret or gives it a new value; returns its ARN. */
  put(name: string, value: string): string {
    const { region, account, now } = this.#options;
    const secret: StoredSecret = {
      arn: `arn:aws:secretsmanager:${region}:${account}:secret:${name}-${arnSuffix(name)}`,
      name,
      value,
      versionId: `00000000-0000-4000-c000-${String(++this.#versions).padStart(12, '0')}`,
      createdAt: now(),
    };
    this.#byName.set(name, secret);
    return secret.arn;
  }

  /** The secret a SecretId names, by name or full ARN; ResourceNotFoundException otherwise. */
  get(secretId: string): StoredSecret {
    const byName = this.#byName.get(secretId);
    const secret = byName ?? [...this.#byName.values()].find((s) => s.arn === secretId);
    if (secret === undefined) {
      throw new AwsError(
        'ResourceNotFoundException',
        "Secrets Manager can't find the specified secret.",
      );
    }
    return secret;
  }
}

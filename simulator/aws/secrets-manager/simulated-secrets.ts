/**
 * The account's Secrets Manager secrets, text only (`SecretString`): the world puts them (the audit
 * relay's bearer token), the functions read them by name, by ARN or by partial ARN (without the
 * six characters Secrets Manager appends). The ARN is the one the template's `Ref` gives the
 * secret (simulator/iam/physical-resources.ts), so the functions' environment names it.
 */
import { secretArn } from '../../iam/physical-resources.ts';
import { simulatedAccount } from '../../iam/simulated-account.ts';
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
      arn: secretArn(name, simulatedAccount({ region, accountId: account })),
      name,
      value,
      versionId: `00000000-0000-4000-c000-${String(++this.#versions).padStart(12, '0')}`,
      createdAt: now(),
    };
    this.#byName.set(name, secret);
    return secret.arn;
  }

  /** The secret a SecretId names, by name, ARN or partial ARN; ResourceNotFoundException otherwise. */
  get(secretId: string): StoredSecret {
    const secret = this.find(secretId);
    if (secret === undefined) {
      throw new AwsError(
        'ResourceNotFoundException',
        "Secrets Manager can't find the specified secret.",
      );
    }
    return secret;
  }

  /** The secret's full ARN, for the authorizer's resource; undefined when there is none. */
  arnOf(secretId: string): string | undefined {
    return this.find(secretId)?.arn;
  }

  find(secretId: string): StoredSecret | undefined {
    const byName = this.#byName.get(secretId);
    if (byName !== undefined) return byName;
    // A partial ARN lacks the `-` and six characters that end the full one.
    return [...this.#byName.values()].find(
      (s) => s.arn === secretId || s.arn.slice(0, -7) === secretId,
    );
  }
}

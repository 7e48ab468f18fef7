/**
 * Public SSM parameters that name the EKS-optimized AMIs. A `latest` parameter changes when a new
 * AMI is published, so values are kept for Karpenter's 24 hours and then read again.
 */
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Now, SsmApi } from './clients.ts';
import { isNotFound, toPortError } from './errors.ts';
import { RefreshInterval } from './refresh-intervals.ts';

export class SsmParameters {
  readonly #ssm: SsmApi;
  readonly #cache: TtlCache<string>;

  constructor(ssm: SsmApi, now: Now) {
    this.#ssm = ssm;
    this.#cache = new TtlCache(now, RefreshInterval.ssmParametersMs);
  }

  /** The parameter's value, or undefined when it does not exist (not every variant is published). */
  async get(name: string): Promise<string | undefined> {
    const cached = this.#cache.get(name);
    if (cached !== undefined) return cached;
    try {
      const output = await this.#ssm.send(new GetParameterCommand({ Name: name }));
      const value = output.Parameter?.Value;
      return value === undefined ? undefined : this.#cache.set(name, value);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw toPortError(err, `getting ssm parameter ${name}`);
    }
  }
}

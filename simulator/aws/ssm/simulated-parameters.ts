/**
 * The account's SSM parameters: the public AMI alias parameters AWS publishes, answered with the
 * simulated cloud's images (simulator/cloud/simulated-images.ts), and any the world puts, such as
 * one an EC2NodeClass's `ssmParameter` term names.
 */
import { aliasParameterImageId } from '../../cloud/simulated-images.ts';
import { AwsError } from '../aws-service.ts';

export interface SimulatedParameter {
  readonly name: string;
  readonly value: string;
  readonly version: number;
  /** Epoch milliseconds. */
  readonly lastModified: number;
  /** `aws:ec2:image` for the AMI parameters, `text` for others. */
  readonly dataType: string;
}

export class SimulatedParameters {
  readonly #now: () => number;
  readonly #put = new Map<string, SimulatedParameter>();

  constructor(now: () => number) {
    this.#now = now;
  }

  put(name: string, value: string, dataType = 'text'): void {
    const version = (this.#put.get(name)?.version ?? 0) + 1;
    this.#put.set(name, { name, value, version, lastModified: this.#now(), dataType });
  }

  /** The parameter, put or published; ParameterNotFound as SSM answers otherwise. */
  get(name: string): SimulatedParameter {
    const put = this.#put.get(name);
    if (put !== undefined) return put;
    const image = aliasParameterImageId(name);
    if (image === undefined)
      throw new AwsError('ParameterNotFound', `Parameter ${name} not found.`);
    return { name, value: image, version: 1, lastModified: 0, dataType: 'aws:ec2:image' };
  }
}

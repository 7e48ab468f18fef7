/**
 * Calls Nodesmith's API with the caller's AWS credentials, signed with SigV4 for
 * `execute-api` by the SDK's own signer (the API takes nothing else: its routes use IAM auth).
 * Credentials come from the SDK's default chain: environment, profile, SSO, instance role.
 */
import type { Readable } from 'node:stream';
import { Sha256 } from '@aws-crypto/sha256-js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentials } from '../eks/clients.ts';
import { readBody } from '../http/read-body.ts';

export interface ApiReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export interface SignedApiClientOptions {
  /** The stack's `ApiUrl` output, e.g. `https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com`. */
  readonly endpoint: string;
  /** @default - the region in the endpoint's host name */
  readonly region?: string;
  /** @default - the SDK's default credential chain */
  readonly credentials?: () => Promise<AwsCredentials>;
}

/** `…execute-api.<region>.amazonaws.com` names its region. */
export function regionOf(endpoint: URL): string | undefined {
  return /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(endpoint.hostname)?.[1];
}

export class SignedApiClient {
  readonly #endpoint: URL;
  readonly #signer: SignatureV4;
  readonly #http = new NodeHttpHandler({ requestTimeout: 30_000 });

  constructor(options: SignedApiClientOptions) {
    this.#endpoint = new URL(options.endpoint);
    const region = options.region ?? regionOf(this.#endpoint);
    if (region === undefined) {
      throw new Error(
        `calling ${options.endpoint}: no region in the host name; give --region or AWS_REGION`,
      );
    }
    this.#signer = new SignatureV4({
      service: 'execute-api',
      region,
      credentials: options.credentials ?? defaultProvider(),
      sha256: Sha256,
    });
  }

  async request(
    method: string,
    path: string,
    body?: string,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<ApiReply> {
    const url = new URL(path, this.#endpoint);
    const unsigned = new HttpRequest({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      headers: {
        host: url.host,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/yaml' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body }),
    });
    const signed = await this.#signer.sign(unsigned);
    const { response } = await this.#http.handle(signed as HttpRequest);
    const text = await readBody(response.body as Readable);
    return {
      status: response.statusCode,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
  }

  /** Closes kept-alive connections, so a command line exits at once. */
  close(): void {
    this.#http.destroy();
  }
}

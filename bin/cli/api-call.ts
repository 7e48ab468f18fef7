/**
 * Calling a deployed Nodesmith's API from the command line: the endpoint (--endpoint or
 * NODESMITH_API_URL, the stack's `ApiUrl` output), requests signed with the user's AWS
 * credentials, refusals turned into one-line errors, and the output formats.
 */
import type { Command } from 'commander';
import { dump } from 'js-yaml';
import type {
  ApiReply,
  SignedApiClient,
} from '../../functions/adapters/pools-api/signed-api-client.ts';
import { UsageError } from './usage-error.ts';

export interface ApiOptions {
  readonly endpoint?: string;
  readonly region?: string;
}

/** The API said no: its message, and exit status 2 for the caller's mistakes, 1 otherwise. */
export class ApiRefusal extends Error {
  override readonly name = 'ApiRefusal';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Loaded when an API command runs: the other commands never pay for the AWS SDK. */
async function clientFor(options: ApiOptions): Promise<SignedApiClient> {
  const endpoint = options.endpoint ?? process.env.NODESMITH_API_URL;
  if (endpoint === undefined || endpoint === '') {
    throw new UsageError(
      "no API endpoint: give --endpoint or set NODESMITH_API_URL to the stack's ApiUrl output",
    );
  }
  const region = options.region ?? process.env.AWS_REGION;
  const { SignedApiClient } = await import(
    '../../functions/adapters/pools-api/signed-api-client.ts'
  );
  return new SignedApiClient({ endpoint, ...(region === undefined ? {} : { region }) });
}

export async function call(
  options: ApiOptions,
  send: (client: SignedApiClient) => Promise<ApiReply>,
): Promise<unknown> {
  const client = await clientFor(options);
  try {
    const reply = await send(client);
    if (reply.status >= 400) {
      const error =
        (reply.body as { error?: string; message?: string; field?: string } | undefined) ?? {};
      const message = error.error ?? error.message ?? `HTTP ${reply.status}`;
      // A refusal names its field; the message may already say where it is.
      const { field } = error;
      const located = field && !message.includes(field) ? `${field}: ${message}` : message;
      throw new ApiRefusal(reply.status, `${located} (HTTP ${reply.status})`);
    }
    return reply.body;
  } finally {
    client.close();
  }
}

export function print(value: unknown, output: string): void {
  process.stdout.write(output === 'json' ? `${JSON.stringify(value, null, 2)}\n` : dump(value));
}

const OUTPUTS = ['table', 'yaml', 'json'];

export function checkOutput(output: string, allowed = OUTPUTS): void {
  if (!allowed.includes(output)) {
    throw new UsageError(`-o must be one of ${allowed.join(', ')}, got "${output}"`);
  }
}

export function withApiOptions(command: Command): Command {
  return command
    .option('--endpoint <url>', "the stack's ApiUrl output (default: $NODESMITH_API_URL)")
    .option('--region <region>', 'the region to sign for (default: from the endpoint)');
}

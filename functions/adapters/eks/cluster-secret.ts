/**
 * The Secrets Manager secret that gives access to a self-managed cluster: a JSON object
 * `{ "endpoint", "certificateAuthorityData", "token" }`. Errors name the secret and the field at
 * fault but never quote the secret's text, which holds a credential and ends up in logs.
 */
import * as z from 'zod';
import { InvalidConfigError } from '../../ports/errors.ts';
import type { ClusterAccess } from './cluster-access.ts';

const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

function isPemBundle(base64: string): boolean {
  return Buffer.from(base64, 'base64').toString('utf8').includes(PEM_CERTIFICATE);
}

export const ClusterSecretSchema = z.object({
  endpoint: z.url({ protocol: /^https$/, error: 'expected an https:// url' }),
  certificateAuthorityData: z
    .base64({ error: 'expected base64 of a pem certificate bundle' })
    .refine(isPemBundle, { error: 'expected base64 of a pem certificate bundle' }),
  token: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }),
});

export type ClusterSecret = z.infer<typeof ClusterSecretSchema>;

const FIELDS = Object.keys(ClusterSecretSchema.shape);

function problemsOf(value: Record<string, unknown>, issues: readonly z.core.$ZodIssue[]): string[] {
  const missing = FIELDS.filter((field) => value[field] === undefined);
  const invalid = issues
    .map((issue) => ({ field: String(issue.path[0] ?? ''), message: issue.message }))
    .filter(({ field }) => !missing.includes(field))
    .map(({ field, message }) => `field ${field}: ${message}`);
  return [...missing.map((field) => `missing field ${field}`), ...new Set(invalid)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string, doing: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the text, so neither it nor the error is passed on.
    throw new InvalidConfigError(`${doing}: it is not valid JSON`);
  }
  if (!isRecord(value)) throw new InvalidConfigError(`${doing}: expected a JSON object`);
  return value;
}

/** The access the secret's text grants, or InvalidConfigError naming every field at fault. */
export function parseClusterSecret(text: string | undefined, secretId: string): ClusterAccess {
  const doing = `reading cluster access secret ${secretId}`;
  if (text === undefined) {
    throw new InvalidConfigError(`${doing}: it has no SecretString; store the JSON as text`);
  }
  const value = parseJson(text, doing);
  const parsed = ClusterSecretSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidConfigError(`${doing}: ${problemsOf(value, parsed.error.issues).join('; ')}`);
  }
  const { endpoint, certificateAuthorityData, token } = parsed.data;
  return { server: endpoint, certificateAuthorityData, token };
}

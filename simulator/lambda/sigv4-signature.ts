/**
 * Whether a request's SigV4 signature is the one its caller's secret makes: the signature is
 * computed again with @smithy/signature-v4 over the headers the request says it signed, its
 * path, query and body, at the time of its `X-Amz-Date`, and compared with what it carries.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface ReceivedRequest {
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The access key, region and service of the credential scope; undefined when unsigned. */
export function credentialScope(authorization: string | undefined) {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request/.exec(
    authorization ?? '',
  );
  if (m === null) return undefined;
  const [, accessKeyId = '', , region = '', service = ''] = m;
  return { accessKeyId, region, service };
}

/** 20261125T090000Z → the Date it names. */
function signingDate(amzDate: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (m === null) return new Date(Number.NaN);
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as number[];
  return new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second));
}

function queryOf(query: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    out[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return out;
}

export async function signatureHolds(
  request: ReceivedRequest,
  secretAccessKey: string,
): Promise<boolean> {
  const authorization = request.headers.authorization ?? '';
  const scope = credentialScope(authorization);
  const signed = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  if (scope === undefined || signed.length === 0) return false;
  const headers = Object.fromEntries(signed.map((h) => [h, request.headers[h] ?? '']));
  const [hostname = '', port] = (request.headers.host ?? '').split(':');
  const expected = await new SignatureV4({
    service: scope.service,
    region: scope.region,
    credentials: { accessKeyId: scope.accessKeyId, secretAccessKey },
    sha256: Sha256,
  }).sign(
    new HttpRequest({
      method: request.method,
      protocol: 'http:',
      hostname,
      ...(port === undefined ? {} : { port: Number(port) }),
      path: request.path,
      query: queryOf(request.query),
      headers,
      ...(request.body === '' ? {} : { body: request.body }),
    }),
    { signingDate: signingDate(request.headers['x-amz-date'] ?? '') },
  );
  return expected.headers.authorization === authorization;
}

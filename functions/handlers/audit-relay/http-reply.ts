/** API Gateway proxy answers and request bodies, as both of the relay's HTTP routes read them. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** API Gateway's own payload limit is 10 MB and Lambda's 6 MB; the apiserver sends ≤ 400 events. */
export const DEFAULT_MAX_BODY_BYTES = 6 * 1024 * 1024;

export function reply(statusCode: number, body: object): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

export function bodyBytes(event: APIGatewayProxyEventV2): Buffer {
  return Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
}

/** The 413 for a body over the limit, or undefined when it fits. */
export function tooLarge(body: Buffer, maxBytes: number) {
  if (body.length <= maxBytes) return undefined;
  return reply(413, { error: `body of ${body.length} bytes is over the ${maxBytes}-byte limit` });
}

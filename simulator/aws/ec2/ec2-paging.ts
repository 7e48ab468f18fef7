/**
 * EC2's paging: `MaxResults` items a page and an opaque `NextToken` for the rest, which the
 * SDK's paginators follow to the end.
 */
import { AwsError } from '../aws-service.ts';

export interface PageRequest {
  readonly NextToken?: string;
  readonly MaxResults?: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly NextToken?: string;
}

export function page<T>(items: readonly T[], request: PageRequest, defaultSize: number): Page<T> {
  const start =
    request.NextToken === undefined || request.NextToken === ''
      ? 0
      : Number(Buffer.from(request.NextToken, 'base64').toString('utf8'));
  if (!Number.isInteger(start) || start < 0) {
    throw new AwsError(
      'InvalidParameterValue',
      `Invalid value for NextToken: ${request.NextToken}`,
    );
  }
  const end = start + (request.MaxResults ?? defaultSize);
  return end >= items.length
    ? { items: items.slice(start) }
    : { items: items.slice(start, end), NextToken: Buffer.from(String(end)).toString('base64') };
}

/**
 * Reading an API request: the body (size-limited, base64 or text) as one Karpenter document of
 * the kind the route is for, read by the same schemas `plan` uses, so a bad field gets a 400
 * naming its path and line; and the resourceVersion the caller expects, from `If-Match` or the
 * document's `metadata.resourceVersion`.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { NamedDocument } from '../../domain/state/stored-document.ts';
import { parseLocated } from '../../manifests/locate-error.ts';
import { ManifestError } from '../../manifests/manifest-error.ts';
import { ApiError } from './api-error.ts';

/** Far above any NodePool, EC2NodeClass or NodeOverlay; far below Lambda's 6 MB. */
export const MAX_BODY_BYTES = 256 * 1024;

export interface DocumentKind<T extends NamedDocument> {
  readonly apiVersion: string;
  readonly kind: string;
  readonly parse: (object: unknown) => T;
}

/** The body as text, within MAX_BODY_BYTES and not empty. */
export function bodyText(event: APIGatewayProxyEventV2): string {
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.length > MAX_BODY_BYTES) {
    throw new ApiError(
      413,
      `body of ${body.length} bytes is over the ${MAX_BODY_BYTES}-byte limit`,
    );
  }
  if (body.length === 0) throw new ApiError(400, 'body is empty: send a document as YAML or JSON');
  return body.toString('utf8');
}

/**
 * The one document of the body, of the route's kind and name. The YAML and JSON readers load
 * with the first body read: the routes that take none never compile them (docs/design.md §7.1).
 */
export async function readDocument<T extends NamedDocument>(
  event: APIGatewayProxyEventV2,
  kind: DocumentKind<T>,
  name: string,
): Promise<{ readonly document: T; readonly resourceVersion?: string }> {
  try {
    const text = bodyText(event);
    const { readDocuments } = await import('../../manifests/documents.ts');
    const documents = readDocuments(text, 'body');
    if (documents.length !== 1) {
      throw new ApiError(
        400,
        `body holds ${documents.length} documents; send exactly one ${kind.kind}`,
      );
    }
    const [raw] = documents as [(typeof documents)[number]];
    if (raw.apiVersion !== kind.apiVersion || raw.kind !== kind.kind) {
      throw new ApiError(
        400,
        `body is ${raw.apiVersion} ${raw.kind}; this path takes ${kind.apiVersion} ${kind.kind}`,
      );
    }
    const document = parseLocated(raw, kind.parse);
    if (document.metadata.name !== name) {
      throw new ApiError(
        400,
        `metadata.name is "${document.metadata.name}" but the path names "${name}"`,
      );
    }
    const meta = raw.object.metadata as { resourceVersion?: unknown } | undefined;
    const version = meta?.resourceVersion;
    return { document, ...(typeof version === 'string' ? { resourceVersion: version } : {}) };
  } catch (err) {
    if (err instanceof ManifestError) {
      throw new ApiError(400, err.message, { field: err.location.path, line: err.location.line });
    }
    throw err;
  }
}

function versionNumber(text: string, source: string): number {
  const value = text.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  if (!/^[1-9]\d*$/.test(value)) {
    throw new ApiError(
      400,
      `${source} must be a resourceVersion such as "3", got ${JSON.stringify(text)}`,
    );
  }
  return Number(value);
}

/** The version the caller expects to replace or delete; `If-Match` and the document must agree. */
export function expectedVersion(
  event: APIGatewayProxyEventV2,
  fromDocument?: string,
): number | undefined {
  const header = event.headers?.['if-match'] ?? event.headers?.['If-Match'];
  const fromHeader = header === undefined ? undefined : versionNumber(header, 'If-Match');
  const fromBody =
    fromDocument === undefined
      ? undefined
      : versionNumber(fromDocument, 'metadata.resourceVersion');
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody) {
    throw new ApiError(
      400,
      `If-Match is ${fromHeader} but metadata.resourceVersion is ${fromBody}; send one, or the same`,
    );
  }
  return fromHeader ?? fromBody;
}

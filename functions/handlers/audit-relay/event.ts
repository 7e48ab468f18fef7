/**
 * What reaches the audit relay: an `audit.k8s.io/v1` EventList POSTed by kube-apiserver's
 * webhook backend, or a CloudWatch Logs subscription batch of EKS audit log lines, each one
 * Event. Only the fields the relay reads are checked; the rest of each document passes.
 */
import { gunzipSync } from 'node:zlib';
import * as z from 'zod';
import type { AuditEvent } from '../../domain/audit/audit-event.ts';

const auditEventSchema = z.looseObject({
  verb: z.string(),
  stage: z.string(),
  objectRef: z
    .looseObject({
      resource: z.string().optional(),
      subresource: z.string().optional(),
      namespace: z.string().optional(),
      name: z.string().optional(),
    })
    .optional(),
  responseStatus: z.looseObject({ code: z.number().int().optional() }).optional(),
  requestObject: z.unknown().optional(),
  responseObject: z.unknown().optional(),
});

export const eventListSchema = z.looseObject({
  kind: z.literal('EventList'),
  apiVersion: z.string().regex(/^audit\.k8s\.io\//, 'expected an audit.k8s.io API version'),
  items: z.array(auditEventSchema).nullish(),
});

type ParsedEvent = z.output<typeof auditEventSchema>;

export function toAuditEvent(event: ParsedEvent): AuditEvent {
  return {
    verb: event.verb,
    stage: event.stage,
    ...(event.objectRef ? { objectRef: event.objectRef } : {}),
    ...(event.responseStatus?.code === undefined ? {} : { code: event.responseStatus.code }),
    requestObject: event.requestObject,
    responseObject: event.responseObject,
  };
}

/** The first problem zod found, as `items[3].verb: expected string`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const path = issue.path
    .map((part, i) =>
      typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  const message = issue.message
    .replace(/^Invalid input: /, '')
    .replace(/^expected (.+), received undefined$/, 'is required ($1)');
  return `${path || 'body'}: ${message}`;
}

/** One audit Event per log line: the line must be the Event's JSON. */
export function parseAuditLine(line: string): AuditEvent {
  const parsed = auditEventSchema.safeParse(JSON.parse(line));
  if (!parsed.success) throw new Error(firstIssue(parsed.error));
  return toAuditEvent(parsed.data);
}

/**
 * The gunzipped batch, as Powertools' CloudWatchLogsDecodeSchema checks it: written out, since
 * that module imports zod's `z` namespace, which brings every locale of zod into the bundle
 * (aws-lambda-powertools-typescript, packages/parser/src/schemas/cloudwatch.ts).
 */
const logsPayloadSchema = z.object({
  messageType: z.string(),
  owner: z.string(),
  logGroup: z.string(),
  logStream: z.string(),
  subscriptionFilters: z.array(z.string()),
  logEvents: z
    .array(z.object({ id: z.string(), timestamp: z.number(), message: z.string() }))
    .nonempty(),
});

export type LogsPayload = z.output<typeof logsPayloadSchema>;

// Not Powertools' CloudWatchLogsSchema: it gunzips with no cap, so a gzip bomb would fill memory.
/** `{awslogs: {data}}`: base64 of gzip of the JSON batch, as CloudWatch Logs delivers it. */
export const logsEventSchema = z.object({ awslogs: z.object({ data: z.string() }) });

/**
 * The most a batch may hold once gunzipped. CloudWatch Logs sends at most 1 MiB of log events
 * per batch (a few MiB of JSON with their ids); anything far past that is a gzip bomb, which
 * would otherwise inflate a few hundred kilobytes into the function's whole memory.
 */
export const MAX_LOGS_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** A subscription payload that can never be read; retrying it would fail the same way. */
export class BadLogsPayloadError extends Error {
  override readonly name = 'BadLogsPayloadError';
}

export function decodeLogsPayload(data: string): LogsPayload {
  const parsed = logsPayloadSchema.safeParse(readJson(gunzip(Buffer.from(data, 'base64'))));
  if (!parsed.success) {
    throw new BadLogsPayloadError(`reading log subscription payload: ${firstIssue(parsed.error)}`);
  }
  return parsed.data;
}

function gunzip(compressed: Buffer): Buffer {
  try {
    return gunzipSync(compressed, { maxOutputLength: MAX_LOGS_PAYLOAD_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `it gunzips to more than ${MAX_LOGS_PAYLOAD_BYTES} bytes`
        : `it is not gzip (${(error as Error).message})`;
    throw new BadLogsPayloadError(`reading log subscription payload: ${reason}`, { cause: error });
  }
}

function readJson(text: Buffer): unknown {
  try {
    return JSON.parse(text.toString('utf8'));
  } catch (error) {
    throw new BadLogsPayloadError('reading log subscription payload: it is not JSON', {
      cause: error,
    });
  }
}

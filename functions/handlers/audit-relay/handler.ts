/**
 * The audit relay's middy chains (docs/design.md §1.1): kube-apiserver's audit webhook through API
 * Gateway, and EKS audit logs through a CloudWatch Logs subscription. Both keep only the pod
 * and node events that matter and send at most one wake per request; everything else is
 * answered at once, because an apiserver webhook waits on the answer. Waking is idempotent in
 * effect (a pass reconciles everything), so a duplicated EventList is harmless.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  CloudWatchLogsEvent,
  Context,
} from 'aws-lambda';
import type { AuditEvent } from '../../domain/audit/audit-event.ts';
import { summarizeSignals } from '../../domain/audit/wake-signals.ts';
import type { Waker } from '../../ports/wake.ts';
import { bearerMatches } from './bearer-token.ts';
import {
  BadLogsPayloadError,
  decodeLogsPayload,
  eventListSchema,
  firstIssue,
  logsEventSchema,
  parseAuditLine,
  toAuditEvent,
} from './event.ts';
import { bodyBytes, DEFAULT_MAX_BODY_BYTES, reply, tooLarge } from './http-reply.ts';

export interface WebhookDependencies {
  /** The expected bearer token (from Secrets Manager, cached by the caller). */
  readonly token: () => Promise<string>;
  readonly waker: Waker;
  /** A Powertools logger configured from the environment when absent. */
  readonly logger?: Logger;
  readonly maxBodyBytes?: number;
}

export type WebhookHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

export type LogsHandler = (event: CloudWatchLogsEvent, context: Context) => Promise<void>;

/** The EventList's events, or the 400 reply that says what is wrong with it. */
function readEventList(body: Buffer): AuditEvent[] | APIGatewayProxyStructuredResultV2 {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return reply(400, { error: 'body is not JSON' });
  }
  const parsed = eventListSchema.safeParse(json);
  if (!parsed.success) return reply(400, { error: firstIssue(parsed.error) });
  return (parsed.data.items ?? []).map(toAuditEvent);
}

async function relay(events: readonly AuditEvent[], deps: { waker: Waker; logger: Logger }) {
  const summary = summarizeSignals(events);
  if (summary !== undefined) await deps.waker.wake({ source: 'audit', reason: summary.reason });
  deps.logger.info('audit events relayed', { events: events.length, ...summary });
  return summary;
}

function defaultLogger(): Logger {
  return new Logger({ serviceName: 'nodesmith-audit-relay' });
}

export function makeWebhookHandler(options: WebhookDependencies): WebhookHandler {
  const deps = { ...options, logger: options.logger ?? defaultLogger() };
  const maxBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const handle = async (event: APIGatewayProxyEventV2) => {
    const authorization = event.headers?.authorization ?? event.headers?.Authorization;
    if (!bearerMatches(authorization, await deps.token())) {
      return reply(401, { error: 'missing or wrong bearer token' });
    }
    const body = bodyBytes(event);
    const refused = tooLarge(body, maxBytes);
    if (refused !== undefined) return refused;
    const events = readEventList(body);
    if (!Array.isArray(events)) return events;
    const summary = await relay(events, deps);
    return reply(200, { events: events.length, relevant: summary?.relevant ?? 0, woke: !!summary });
  };
  return middy(handle).use(injectLambdaContext(deps.logger));
}

/** Reads each log line as one audit Event; a line that is not one is logged and skipped. */
function logLines(messages: readonly { id: string; message: string }[], logger: Logger) {
  const events: AuditEvent[] = [];
  for (const { id, message } of messages) {
    try {
      events.push(parseAuditLine(message));
    } catch (err) {
      logger.warn('log line is not an audit event; skipped', { id, error: (err as Error).message });
    }
  }
  return events;
}

export function makeLogsHandler(options: { waker: Waker; logger?: Logger }): LogsHandler {
  const deps = { ...options, logger: options.logger ?? defaultLogger() };
  const handle = async (event: CloudWatchLogsEvent) => {
    const parsed = logsEventSchema.safeParse(event);
    if (!parsed.success) {
      throw new BadLogsPayloadError(`reading log subscription event: ${firstIssue(parsed.error)}`);
    }
    const payload = decodeLogsPayload(parsed.data.awslogs.data);
    if (payload.messageType === 'CONTROL_MESSAGE') return;
    await relay(logLines(payload.logEvents, deps.logger), deps);
  };
  return middy(handle).use(injectLambdaContext(deps.logger));
}

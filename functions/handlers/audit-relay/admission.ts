/**
 * The admission wake's middy chain (docs/audit-relay.md, "The admission wake"): kube-apiserver
 * calls it for pod creations, the scheduler's `pods/status` updates and node deletions, through
 * API Gateway at `POST /v1/wake/{token}`. It answers every AdmissionReview `allowed: true` with no
 * patch, so it can neither block nor change an object, and turns what it saw into at most two
 * wakes a window, the cluster's window that every container shares (wake-window.ts). The API
 * server waits on the answer (at most the configuration's two seconds), so the wake gets a budget
 * within that and a failed or slow wake is logged, never answered: the minute tick covers what it
 * would have brought sooner.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { admissionSignal } from '../../domain/admission/admission-signal.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';
import {
  type AdmissionReview,
  admissionReviewSchema,
  allowed,
  toAdmissionRequest,
} from './admission-review.ts';
import { firstIssue } from './event.ts';
import type { WebhookHandler } from './handler.ts';
import { bodyBytes, DEFAULT_MAX_BODY_BYTES, reply, tooLarge } from './http-reply.ts';
import { pathTokenMatches, type WakeTokens } from './path-token.ts';
import { SharedWakeWindow, type WakeOutcome } from './wake-window.ts';

/** How long calls after a wake are covered by it (SQS delays in whole seconds). */
export const WAKE_WINDOW_MS = 1000;
/** The wake's share of the webhook's two-second timeout, leaving API Gateway its own. */
export const WAKE_BUDGET_MS = 1000;

export interface AdmissionDependencies {
  /** The accepted tokens (from Secrets Manager, cached by the caller). */
  readonly tokens: () => Promise<WakeTokens>;
  /** The cluster's wake window, shared with the other containers. */
  readonly state: Pick<StateStore, 'wakeWindow'>;
  readonly waker: Waker;
  /** Epoch milliseconds. */
  readonly now: () => number;
  readonly logger?: Logger;
  readonly maxBodyBytes?: number;
  readonly wakeBudgetMs?: number;
}

/** An API Gateway proxy handler, as the audit webhook's. */
export type AdmissionHandler = WebhookHandler;

/** The wake's outcome, or `late` when the budget ran out first (the wake may still land). */
async function withinBudget(wake: Promise<WakeOutcome>, budgetMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  try {
    return await Promise.race([wake, late]);
  } finally {
    clearTimeout(timer);
  }
}

type Read = { review: AdmissionReview } | { refused: APIGatewayProxyStructuredResultV2 };

/** The review, or the 413 or 400 that says what is wrong with the body. */
function readReview(body: Buffer, maxBytes: number): Read {
  const large = tooLarge(body, maxBytes);
  if (large !== undefined) return { refused: large };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { refused: reply(400, { error: 'body is not JSON' }) };
  }
  const parsed = admissionReviewSchema.safeParse(json);
  if (!parsed.success) return { refused: reply(400, { error: firstIssue(parsed.error) }) };
  return { review: parsed.data };
}

export function makeAdmissionHandler(options: AdmissionDependencies): AdmissionHandler {
  const logger = options.logger ?? new Logger({ serviceName: 'nodesmith-audit-relay' });
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const window = new SharedWakeWindow({
    store: options.state.wakeWindow,
    waker: options.waker,
    windowMs: WAKE_WINDOW_MS,
    now: options.now,
    onStoreError: (err) =>
      logger.warn('wake window not reached; this container keeps its own', { error: String(err) }),
  });
  const wake = async (reason: string) => {
    const sent = window.saw({ source: 'admission', reason });
    try {
      return await withinBudget(sent, options.wakeBudgetMs ?? WAKE_BUDGET_MS);
    } catch (err) {
      logger.warn('wake not sent; the tick will bring the pass', { error: String(err) });
      return 'failed' as const;
    }
  };
  const handle = async (
    event: APIGatewayProxyEventV2,
  ): Promise<APIGatewayProxyStructuredResultV2> => {
    // As API Gateway answers an unknown path: the route's existence is not confirmed.
    if (!pathTokenMatches(event.pathParameters?.token, await options.tokens())) {
      return reply(404, { message: 'Not Found' });
    }
    const read = readReview(bodyBytes(event), maxBytes);
    if ('refused' in read) return read.refused;
    const request = toAdmissionRequest(read.review);
    const signal = admissionSignal(request);
    const outcome = signal === undefined ? 'none' : await wake(`1 ${signal}`);
    const { operation, resource, subResource } = request;
    logger.info('admission review answered', { operation, resource, subResource, signal, outcome });
    return reply(200, allowed(request.uid));
  };
  return middy(handle).use(injectLambdaContext(logger));
}

/**
 * Fuzzing the audit relay as Lambda invokes it: the webhook (any body, encoding, authorization
 * header and token) answers 200, 400, 401 or 413, a refusal saying what was wrong and waking
 * nothing; the CloudWatch Logs subscription (any payload: base64 or not, gzip or not, bombs,
 * batches of any lines) either relays or fails as a bad payload naming what was wrong, waking
 * nothing.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { CloudWatchLogsEvent } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  makeLogsHandler,
  makeWebhookHandler,
} from '../../functions/handlers/audit-relay/handler.ts';
import {
  context,
  logsEvent,
  post,
  RecordingWaker,
  TOKEN,
} from '../handlers/audit-relay/support.ts';
import { anyText, FUZZ, FUZZ_TIMEOUT, hostileKey, mutated, wrongValue } from './fuzz-support.ts';

function fixture(name: string): unknown {
  const url = new URL(`../handlers/audit-relay/fixtures/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8'));
}

const EVENT_LISTS = ['pod-create', 'pod-unschedulable', 'nodes', 'no-wake'].map(fixture);

const eventListBodies = fc.oneof(
  fc.constantFrom(...EVENT_LISTS).map((list) => JSON.stringify(list)),
  ...EVENT_LISTS.map((list) => mutated(list).map((v) => JSON.stringify(v) ?? '')),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  hostileKey.map(
    (key) => `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","items":[{"${key}":{}}]}`,
  ),
  fc.integer({ min: 1, max: 5000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  anyText,
);

const authorizations = fc.oneof(
  fc.constant(`Bearer ${TOKEN}`),
  fc.constantFrom(
    `bearer ${TOKEN}`,
    `Bearer  ${TOKEN} `,
    `Bearer ${TOKEN}x`,
    'Bearer',
    '',
    `Basic ${TOKEN}`,
  ),
  anyText.map((s) => `Bearer ${s}`),
  anyText,
);

const webhookRequests = fc.record({
  body: eventListBodies,
  authorization: fc.option(authorizations, { nil: undefined }),
  header: fc.constantFrom('authorization', 'Authorization', 'x-authorization'),
  base64: fc.boolean(),
  token: fc.oneof(fc.constant(TOKEN), fc.constant(''), anyText),
});

/** Lines of an EKS audit log batch: audit Events, damaged ones, and anything else. */
const logLines = fc.array(
  fc.oneof(
    fc
      .constantFrom(...EVENT_LISTS.flatMap((l) => (l as { items: unknown[] }).items))
      .map((e) => JSON.stringify(e)),
    ...EVENT_LISTS.map((l) =>
      mutated((l as { items: unknown[] }).items[0]).map((v) => JSON.stringify(v) ?? ''),
    ),
    anyText,
  ),
  { maxLength: 8 },
);

/** Gzip of one character repeated: at, under and over the cap (built once, they take a while). */
const BOMBS = [1, 16, 17, 40].map((mib) => zipped(' '.repeat(mib * 1024 * 1024)));

const logsPayloads: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .tuple(fc.constantFrom('DATA_MESSAGE', 'CONTROL_MESSAGE', 'OTHER', ''), logLines)
    .map(([type, lines]) => logsEvent(type, lines)),
  logLines
    .chain((lines) => mutated(batchOf(logsEvent('DATA_MESSAGE', lines))))
    .map((batch) => zipped(JSON.stringify(batch) ?? '')),
  fc.constantFrom(...BOMBS),
  anyText.map((text) => zipped(text)),
  anyText.map((text) => ({ awslogs: { data: Buffer.from(text).toString('base64') } })),
  anyText.map((data) => ({ awslogs: { data } })),
  wrongValue.map((data) => ({ awslogs: { data } })),
  wrongValue.map((awslogs) => ({ awslogs })),
  wrongValue,
);

function batchOf(event: CloudWatchLogsEvent): unknown {
  return JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8'));
}

function zipped(text: string): CloudWatchLogsEvent {
  return { awslogs: { data: gzipSync(text).toString('base64') } };
}

describe('fuzzing the audit relay', () => {
  it('answers the webhook 200, 400, 401 or 413, naming what was wrong and waking nothing on a refusal', {
    timeout: FUZZ_TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(webhookRequests, async ({ body, authorization, header, base64, token }) => {
        // Prepare
        const waker = new RecordingWaker();
        const handler = makeWebhookHandler({
          token: async () => token,
          waker,
          maxBodyBytes: 64 * 1024,
        });
        const event = post(base64 ? Buffer.from(body).toString('base64') : body);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (authorization !== undefined) headers[header] = authorization;

        // Act
        const reply = await handler({ ...event, headers, isBase64Encoded: base64 }, context());

        // Assess
        expect([200, 400, 401, 413]).toContain(reply.statusCode);
        const answer = JSON.parse(String(reply.body));
        if (reply.statusCode !== 200) {
          expect(answer.error).toMatch(/\S/);
          expect(answer.error).not.toMatch(/undefined|\[object Object\]|call stack/i);
          expect(waker.wakes).toEqual([]);
        }
        if (reply.statusCode === 200) {
          expect(token).not.toBe('');
          expect(authorization?.trim().endsWith(token)).toBe(true);
        }
      }),
      FUZZ,
    );
  });

  it('relays a log batch or fails it as a bad payload naming what was wrong', {
    timeout: FUZZ_TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(logsPayloads, async (event) => {
        // Prepare
        const waker = new RecordingWaker();
        const handler = makeLogsHandler({ waker });

        // Act
        const outcome = await handler(event as CloudWatchLogsEvent, context()).then(
          () => undefined,
          (error: unknown) => error,
        );

        // Assess
        if (outcome === undefined) return;
        expect(outcome).toBeInstanceOf(Error);
        expect((outcome as Error).message).toMatch(/^reading log subscription (payload|event): \S/);
        expect(waker.wakes).toEqual([]);
      }),
      FUZZ,
    );
  });
});

/** Real-shaped Lambda events for the relay: API Gateway HTTP API POSTs and CloudWatch Logs batches. */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, CloudWatchLogsEvent } from 'aws-lambda';
import type { Wake, Waker } from '../../../functions/ports/wake.ts';
import { lambdaContext, webhookEvent } from '../../../simulator/run/lambda-events.ts';

export const TOKEN = 's3cr3t-audit-token-0123456789';

export function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

export function post(body: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  const event = webhookEvent(body, TOKEN);
  return { ...event, headers: { ...event.headers, ...headers } };
}

export function context() {
  return lambdaContext('relay-test');
}

export class RecordingWaker implements Waker {
  readonly wakes: Wake[] = [];

  async wake(wake: Wake): Promise<void> {
    this.wakes.push(wake);
  }
}

/** What CloudWatch Logs delivers to a subscribed function: base64 of gzip of the batch. */
export function logsEvent(messageType: string, lines: readonly string[]): CloudWatchLogsEvent {
  const batch = {
    messageType,
    owner: '111122223333',
    logGroup: '/aws/eks/shop-prod/cluster',
    logStream: 'kube-apiserver-audit-0f6b3f9c2a7d4e1b8c5a9d2e7f3b1c4a',
    subscriptionFilters: ['nodesmith-audit'],
    logEvents: lines.map((message, i) => ({
      id: `3${i}`.padEnd(56, '0'),
      timestamp: 1795553530105 + i,
      message,
    })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(batch)).toString('base64') } };
}

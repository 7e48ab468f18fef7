/**
 * EventBridge over its JSON protocol (awsJson1_1, `X-Amz-Target: AWSEvents.<Operation>`):
 * PutEvents, each entry accepted with its event id or refused with its own error code, as the
 * API reference's PutEventsResultEntry describes, so that one bad entry does not fail the call.
 */
import type { AwsService } from '../aws-service.ts';
import { jsonRpcService } from '../json/json-rpc-service.ts';
import type { SimulatedEventBridge } from './simulated-event-bridge.ts';

type Entry = Readonly<Record<string, unknown>>;

interface EntryResult {
  readonly EventId?: string;
  readonly ErrorCode?: string;
  readonly ErrorMessage?: string;
}

function parseDetail(detail: unknown): unknown {
  try {
    const parsed: unknown = JSON.parse(String(detail));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}

function putEntry(events: SimulatedEventBridge, entry: Entry): EntryResult {
  const { Source, DetailType, Detail, EventBusName, Time, Resources } = entry;
  if (typeof Source !== 'string' || typeof DetailType !== 'string' || Detail === undefined) {
    return {
      ErrorCode: 'InvalidArgument',
      ErrorMessage: 'Source, DetailType and Detail are required.',
    };
  }
  const detail = parseDetail(Detail);
  if (detail === undefined)
    return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
  const bus = typeof EventBusName === 'string' ? EventBusName : undefined;
  if (!events.hasEventBus(bus)) {
    return {
      ErrorCode: 'ResourceNotFoundException',
      ErrorMessage: `Event bus ${bus} does not exist.`,
    };
  }
  const event = events.put({
    source: Source,
    detailType: DetailType,
    detail,
    eventBusName: bus,
    resources: Array.isArray(Resources) ? (Resources as string[]) : [],
    // The JSON protocols send timestamps as epoch seconds.
    time: typeof Time === 'number' ? Time * 1000 : undefined,
  });
  return { EventId: event.id };
}

export function eventBridgeService(events: SimulatedEventBridge): AwsService {
  return jsonRpcService({
    signingName: 'events',
    actionPrefix: 'events',
    target: 'AWSEvents',
    jsonVersion: '1.1',
    operations: {
      PutEvents: (input) => {
        const entries = Array.isArray(input.Entries) ? (input.Entries as Entry[]) : [];
        const results = entries.map((entry) => putEntry(events, entry));
        const failed = results.filter((r) => r.ErrorCode !== undefined).length;
        return { FailedEntryCount: failed, Entries: results };
      },
    },
  });
}

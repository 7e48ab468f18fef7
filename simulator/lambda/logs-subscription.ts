/**
 * The template's CloudWatch Logs subscription filters (`AWS::Logs::SubscriptionFilter`) whose
 * destination is a function: log events written to the subscribed group that match the filter
 * pattern are sent to the function as CloudWatch Logs sends them, `{ awslogs: { data } }` with
 * the batch JSON gzipped and base64-encoded, invoked asynchronously (Amazon CloudWatch Logs User
 * Guide, "Subscription filters with AWS Lambda").
 */
import { gzipSync } from 'node:zlib';
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';
import { type AsyncInvokeConfig, invokeAsync } from './async-invocation.ts';
import { filterMatches } from './log-filter-pattern.ts';
import type { ResolveValue } from './template-resolver.ts';

export interface LogSubscription {
  readonly filterName: string;
  readonly logGroupName: string;
  readonly filterPattern: string;
  /** The logical id of the function it sends to. */
  readonly functionLogicalId: string;
}

export interface LogEvent {
  readonly id: string;
  /** Epoch milliseconds. */
  readonly timestamp: number;
  readonly message: string;
}

export function logSubscriptions(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
): LogSubscription[] {
  return resourcesOfType(template, 'AWS::Logs::SubscriptionFilter').flatMap(([id, p]) => {
    const destination = (p.DestinationArn as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
    if (
      destination === undefined ||
      template.Resources[destination[0]]?.Type !== 'AWS::Lambda::Function'
    ) {
      return [];
    }
    return [
      {
        filterName: p.FilterName === undefined ? resolve({ Ref: id }) : resolve(p.FilterName),
        logGroupName: resolve(p.LogGroupName),
        filterPattern: String(p.FilterPattern ?? ''),
        functionLogicalId: destination[0],
      },
    ];
  });
}

/** The event CloudWatch Logs invokes the function with; undefined when no event matches. */
export function subscriptionEvent(
  subscription: LogSubscription,
  owner: string,
  logStream: string,
  events: readonly LogEvent[],
) {
  const logEvents = events.filter((e) => filterMatches(subscription.filterPattern, e.message));
  if (logEvents.length === 0) return undefined;
  const batch = {
    messageType: 'DATA_MESSAGE',
    owner,
    logGroup: subscription.logGroupName,
    logStream,
    subscriptionFilters: [subscription.filterName],
    logEvents,
  };
  return { awslogs: { data: gzipSync(JSON.stringify(batch)).toString('base64') } };
}

export interface SubscribedLogGroupsOptions {
  /** The account that owns the log groups. */
  readonly owner: string;
  /** Invokes the function with the event; rejects when the invocation fails. */
  readonly invoke: (functionLogicalId: string, event: unknown) => Promise<unknown>;
  readonly functionArnOf: (functionLogicalId: string) => string;
  readonly asyncConfigOf: (functionLogicalId: string) => AsyncInvokeConfig;
  readonly now: () => number;
  /** Sends a failed invocation's record to its `OnFailure` destination. */
  readonly onFailure: (destinationArn: string, record: unknown) => void;
}

/** Log groups with subscriptions: what is written to them goes on to the subscribed functions. */
export class SubscribedLogGroups {
  readonly #subscriptions: readonly LogSubscription[];
  readonly #options: SubscribedLogGroupsOptions;

  constructor(subscriptions: readonly LogSubscription[], options: SubscribedLogGroupsOptions) {
    this.#subscriptions = subscriptions;
    this.#options = options;
  }

  /** Writes the events to the group's stream; resolves when each subscription's invocation ended. */
  async putLogEvents(logGroupName: string, logStream: string, events: readonly LogEvent[]) {
    const subscribed = this.#subscriptions.filter((s) => s.logGroupName === logGroupName);
    const deliveries = subscribed.flatMap((subscription) => {
      const event = subscriptionEvent(subscription, this.#options.owner, logStream, events);
      return event === undefined ? [] : [this.#deliver(subscription.functionLogicalId, event)];
    });
    return Promise.all(deliveries);
  }

  async #deliver(functionLogicalId: string, event: unknown) {
    const outcome = await invokeAsync({
      invoke: (e) => this.#options.invoke(functionLogicalId, e),
      event,
      config: this.#options.asyncConfigOf(functionLogicalId),
      functionArn: this.#options.functionArnOf(functionLogicalId),
      now: this.#options.now,
      onFailure: this.#options.onFailure,
    });
    return { functionLogicalId, ...outcome };
  }
}

/**
 * What SSM, SQS, EventBridge, Secrets Manager, EKS and STS authorize for the calls the functions
 * make (Service Authorization Reference, each service's page): the parameter, queue, bus,
 * secret or cluster the input names, as an ARN. AWS's public parameters (`/aws/service/…`)
 * belong to no account. `sts:GetCallerIdentity` needs no permission at all.
 */
import type { AuthorizationLookups } from './authorization-lookups.ts';
import type { Authorization, CallPlace } from './authorization-request.ts';

function arn(place: CallPlace, service: string, resource: string, account = place.accountId) {
  return `arn:${place.partition}:${service}:${place.region}:${account}:${resource}`;
}

function on(action: string, resource: string, context = {}): Authorization[] {
  return [{ action, resource, context }];
}

function parameterArn(name: string, place: CallPlace): string {
  if (name.startsWith('arn:')) return name;
  const path = name.replace(/^\//, '');
  return arn(place, 'ssm', `parameter/${path}`, path.startsWith('aws/') ? '' : place.accountId);
}

/** `https://sqs.us-east-1.amazonaws.com/111122223333/work` is `arn:…:sqs:us-east-1:111122223333:work`. */
function queueArn(url: string, place: CallPlace): string {
  const [account, name] = new URL(url).pathname.split('/').slice(1);
  return arn(place, 'sqs', String(name), String(account));
}

function busArn(name: string | undefined, place: CallPlace): string {
  if (name?.startsWith('arn:') === true) return name;
  return arn(place, 'events', `event-bus/${name ?? 'default'}`);
}

function onQueue(action: string) {
  return (input: { readonly QueueUrl?: string }, place: CallPlace) =>
    on(action, queueArn(input.QueueUrl ?? '', place));
}

interface PutEventsInput {
  readonly Entries?: readonly {
    readonly EventBusName?: string;
    readonly Source?: string;
    readonly DetailType?: string;
  }[];
}

function putEvents(input: PutEventsInput, place: CallPlace): Authorization[] {
  return (input.Entries ?? []).flatMap((entry) =>
    on('events:PutEvents', busArn(entry.EventBusName, place), {
      ...(entry.Source === undefined ? {} : { 'events:source': entry.Source }),
      ...(entry.DetailType === undefined ? {} : { 'events:detail-type': entry.DetailType }),
    }),
  );
}

function onSecret(action: string) {
  return (
    input: { readonly SecretId?: string },
    place: CallPlace,
    lookups: AuthorizationLookups,
  ) => {
    const id = input.SecretId ?? '';
    const resource =
      lookups.secretArn(id) ??
      (id.startsWith('arn:') ? id : arn(place, 'secretsmanager', `secret:${id}`));
    return on(action, resource);
  };
}

type ServiceOperation = (
  input: never,
  place: CallPlace,
  lookups: AuthorizationLookups,
) => Authorization[];

/** By the service's action prefix, then the operation's name. */
export const SERVICE_AUTHORIZATIONS: Readonly<
  Record<string, Readonly<Record<string, ServiceOperation>>>
> = {
  ssm: {
    GetParameter: (input: { readonly Name?: string }, place) =>
      on('ssm:GetParameter', parameterArn(input.Name ?? '', place)),
  },
  sqs: {
    SendMessage: onQueue('sqs:SendMessage'),
    ReceiveMessage: onQueue('sqs:ReceiveMessage'),
    DeleteMessage: onQueue('sqs:DeleteMessage'),
    ChangeMessageVisibility: onQueue('sqs:ChangeMessageVisibility'),
    GetQueueAttributes: onQueue('sqs:GetQueueAttributes'),
    GetQueueUrl: (
      input: { readonly QueueName?: string; readonly QueueOwnerAWSAccountId?: string },
      place,
    ) =>
      on(
        'sqs:GetQueueUrl',
        arn(place, 'sqs', input.QueueName ?? '', input.QueueOwnerAWSAccountId ?? place.accountId),
      ),
  },
  events: { PutEvents: putEvents },
  secretsmanager: {
    GetSecretValue: onSecret('secretsmanager:GetSecretValue'),
    DescribeSecret: onSecret('secretsmanager:DescribeSecret'),
  },
  eks: {
    DescribeCluster: (input: { readonly name?: string }, place) =>
      on('eks:DescribeCluster', arn(place, 'eks', `cluster/${input.name ?? ''}`)),
  },
  sts: { GetCallerIdentity: () => [] },
};

/**
 * The DynamoDB StateStore (docs/design.md §4; layout in docs/state.md). The document client is
 * injected as a narrow type so that tests and the composition root decide how it is built.
 *
 * @example
 * const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
 * const state = makeDynamoDbStateStore({ client, tables: { nodeClaims: env.CLAIMS_TABLE, state: env.STATE_TABLE } });
 */
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import type { NodeOverlay } from '../../domain/overlays/node-overlay.ts';
import type { NamedDocument } from '../../domain/state/stored-document.ts';
import type { StateStore } from '../../ports/state-store.ts';
import { DynamoDbDocumentStore } from './dynamodb-document-store.ts';
import { DynamoDbEventsSeenStore } from './dynamodb-events-seen-store.ts';
import { DynamoDbLeaseStore } from './dynamodb-lease-store.ts';
import { DynamoDbNodeClaimStore } from './dynamodb-node-claim-store.ts';
import { DynamoDbPastDisruptionStore } from './dynamodb-past-disruption-store.ts';
import { DynamoDbRefusingLimitStore } from './dynamodb-refusing-limit-store.ts';
import { DynamoDbUnavailableOfferingStore } from './dynamodb-unavailable-offering-store.ts';
import { DynamoDbWakeWindowStore } from './dynamodb-wake-window-store.ts';
import { type DocumentPartition, Partition } from './keys.ts';
import type { DocumentClient } from './pages.ts';
import type { StateTableNames } from './tables.ts';
import { type WarmClaimsOptions, withWarmClaims } from './warm-claims.ts';

export interface DynamoDbStateStoreOptions {
  readonly client: DocumentClient;
  readonly tables: StateTableNames;
  /**
   * Keep the claims between the passes of this container (warm-claims.ts): the controller's
   * composition root asks for it. @default claims are scanned on every list
   */
  readonly warmClaims?: WarmClaimsOptions;
}

export function makeDynamoDbStateStore({
  client,
  tables,
  warmClaims,
}: DynamoDbStateStoreOptions): StateStore {
  const nodeClaims = new DynamoDbNodeClaimStore(client, tables);
  const state: StateStore = {
    ...makeDynamoDbDocumentStores(client, tables.state),
    nodeClaims,
    unavailableOfferings: new DynamoDbUnavailableOfferingStore(client, tables.state),
    lease: new DynamoDbLeaseStore(client, tables.state),
    eventsSeen: new DynamoDbEventsSeenStore(client, tables.state),
    pastDisruptions: new DynamoDbPastDisruptionStore(client, tables.state),
    refusingLimits: new DynamoDbRefusingLimitStore(client, tables.state),
    wakeWindow: new DynamoDbWakeWindowStore(client, tables.state),
  };
  return warmClaims === undefined ? state : withWarmClaims(state, nodeClaims, warmClaims);
}

/**
 * Only the NodePool, EC2NodeClass, NodeOverlay and limits stores, which live in the state table alone: for readers
 * such as `plan --state-table` that have no claims table to name.
 */
export function makeDynamoDbDocumentStores(
  client: DocumentClient,
  stateTable: string,
): Pick<StateStore, 'nodePools' | 'nodeClasses' | 'nodeOverlays' | 'clusterLimits'> {
  const store = <TDocument extends NamedDocument>(partition: DocumentPartition, kind: string) =>
    new DynamoDbDocumentStore<TDocument>({ client, tableName: stateTable, partition, kind });
  return {
    nodePools: store<NodePool>(Partition.nodePool, 'node pool'),
    nodeClasses: store<EC2NodeClass>(Partition.nodeClass, 'node class'),
    nodeOverlays: store<NodeOverlay>(Partition.nodeOverlay, 'node overlay'),
    clusterLimits: store<ClusterLimits>(Partition.clusterLimits, 'cluster limits'),
  };
}

/**
 * NodePools, EC2NodeClasses, NodeOverlays and the cluster's limits from Nodesmith's own DynamoDB
 * state table, for `plan --state-table`: the documents the controller itself would plan with.
 * They are read through the StateStore port and validated again as a file's would be, because the
 * store keeps each document exactly as submitted, and the CRD defaults may not have been applied
 * to it. Loaded lazily so that `plan -f` never loads the DynamoDB client.
 */
import {
  type AccessFailure,
  type AccessFailureKind,
  accessFailure,
  openDynamoDb,
} from '../../functions/adapters/dynamodb/connection.ts';
import { makeDynamoDbDocumentStores } from '../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import type { ClusterSnapshot } from '../../functions/domain/cluster-snapshot.ts';
import { CLUSTER_LIMITS_NAME } from '../../functions/domain/limits/cluster-limits.ts';
import type { NamedDocument } from '../../functions/domain/state/stored-document.ts';
import { parseEC2NodeClass } from '../../functions/manifests/karpenter/node-class.ts';
import { parseNodeOverlay } from '../../functions/manifests/karpenter/node-overlay.ts';
import { parseNodePool } from '../../functions/manifests/karpenter/node-pool.ts';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';
import { parseClusterLimits } from '../../functions/manifests/nodesmith/cluster-limits.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { UsageError } from './usage-error.ts';

export interface StateTable {
  readonly name: string;
  readonly region: string;
}

export type StoredPools = Pick<
  ClusterSnapshot,
  'nodePools' | 'nodeClasses' | 'nodeOverlays' | 'clusterLimits'
>;
type DocumentStores = Pick<
  StateStore,
  'nodePools' | 'nodeClasses' | 'nodeOverlays' | 'clusterLimits'
>;

/** What went wrong and what to do about it, per kind of failure. */
const ADVICE: Readonly<Record<AccessFailureKind, string>> = {
  'missing-table': 'no such table; check --state-table and --region',
  'no-credentials':
    'no AWS credentials found; set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
  'credentials-refused':
    'AWS refused the credentials; check that they are current and belong to the right account',
  'access-denied': 'access denied; grant dynamodb:Query on the table to the identity you use',
  unreachable: 'cannot reach DynamoDB; check --region, the network and AWS_ENDPOINT_URL_DYNAMODB',
};

function describeFailure(failure: AccessFailure, table: StateTable): string {
  return `reading state table ${table.name} in ${table.region}: ${ADVICE[failure.kind]} (${failure.code})`;
}

/** Validates a stored document; a bad one is reported as a file would be, placed in the table. */
function parseStored<T>(
  document: NamedDocument,
  parse: (document: unknown) => T,
  where: string,
): T {
  try {
    return parse(document);
  } catch (err) {
    if (err instanceof ManifestError) throw err.at(`${where} ${document.metadata.name}`);
    throw err;
  }
}

async function readPools(stores: DocumentStores, table: StateTable): Promise<StoredPools> {
  const [pools, classes, overlays, limits] = await Promise.all([
    stores.nodePools.list(),
    stores.nodeClasses.list(),
    stores.nodeOverlays.list(),
    stores.clusterLimits.get(CLUSTER_LIMITS_NAME),
  ]);
  if (pools.length === 0) {
    throw new UsageError(
      `state table ${table.name} in ${table.region} holds no NodePools; store them there first, or give them with -f instead of --state-table`,
    );
  }
  const where = `state table ${table.name},`;
  return {
    nodePools: pools.map((s) => parseStored(s.document, parseNodePool, `${where} NodePool`)),
    nodeClasses: classes.map((s) =>
      parseStored(s.document, parseEC2NodeClass, `${where} EC2NodeClass`),
    ),
    nodeOverlays: overlays.map((s) =>
      parseStored(s.document, parseNodeOverlay, `${where} NodeOverlay`),
    ),
    ...(limits === undefined
      ? {}
      : {
          clusterLimits: parseStored(limits.document, parseClusterLimits, `${where} ClusterLimits`),
        }),
  };
}

export async function poolsFromState(table: StateTable): Promise<StoredPools> {
  // The SDK's notice about future Node versions is for whoever ships this package, and would
  // turn every one-line answer on stderr into ten lines; a user can still set it to "false".
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const connection = openDynamoDb({ region: table.region });
  try {
    return await readPools(makeDynamoDbDocumentStores(connection.client, table.name), table);
  } catch (err) {
    const failure = accessFailure(err);
    if (failure === undefined) throw err;
    throw new UsageError(describeFailure(failure, table), { cause: err });
  } finally {
    connection.close();
  }
}

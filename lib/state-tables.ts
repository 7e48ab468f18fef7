/**
 * The two DynamoDB tables of one cluster's state, keyed by the names the DynamoDB adapter uses
 * (functions/contract) and as its `tableDefinitions()` describes them (a template test holds the
 * two together): NodeClaims by name with an index by instance id, and everything else by
 * partition and sort key with a TTL. On-demand, point-in-time recovery, encrypted, and retained
 * when the stack goes: the claims name instances that may still run.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  Billing,
  type ITableV2,
  ProjectionType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  CLAIM_NAME,
  INSTANCE_ID,
  INSTANCE_ID_INDEX,
  STATE_PK,
  STATE_SK,
  STATE_TTL,
} from '../functions/contract/state-tables.ts';

const SAFE = {
  billing: Billing.onDemand(),
  encryption: TableEncryptionV2.awsManagedKey(),
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  deletionProtection: true,
  removalPolicy: RemovalPolicy.RETAIN,
} as const;

export class StateTables extends Construct {
  /** One item per NodeClaim. */
  readonly nodeClaims: ITableV2;
  /** NodePools, EC2NodeClasses, unavailable offerings, the lease and events seen. */
  readonly state: ITableV2;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.nodeClaims = new TableV2(this, 'NodeClaims', {
      ...SAFE,
      partitionKey: { name: CLAIM_NAME, type: AttributeType.STRING },
      globalSecondaryIndexes: [
        {
          indexName: INSTANCE_ID_INDEX,
          partitionKey: { name: INSTANCE_ID, type: AttributeType.STRING },
          projectionType: ProjectionType.KEYS_ONLY,
        },
      ],
    });
    this.state = new TableV2(this, 'State', {
      ...SAFE,
      partitionKey: { name: STATE_PK, type: AttributeType.STRING },
      sortKey: { name: STATE_SK, type: AttributeType.STRING },
      timeToLiveAttribute: STATE_TTL,
    });
  }
}

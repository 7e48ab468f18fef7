/**
 * The StateStore contract: one suite, run against the DynamoDB adapter (on DynamoDB Local) and
 * against the in-memory twin, so the two cannot drift apart. `makeStore` must return a fresh,
 * empty store on every call.
 */
import { describe } from 'vitest';
import { documentStoreContract } from './document-store.contract.ts';
import { expiringRecordsContract } from './expiring-records.contract.ts';
import { fencingContract } from './fencing.contract.ts';
import { leaseStoreContract } from './lease-store.contract.ts';
import { nodeClaimStoreContract } from './node-claim-store.contract.ts';
import { refusingLimitStoreContract } from './refusing-limit-store.contract.ts';
import type { StoreFactory } from './state-fixtures.ts';
import { wakeWindowStoreContract } from './wake-window-store.contract.ts';

export type { StoreFactory } from './state-fixtures.ts';

export function describeStateStoreContract(name: string, makeStore: StoreFactory): void {
  describe(`StateStore contract: ${name}`, () => {
    documentStoreContract(makeStore);
    nodeClaimStoreContract(makeStore);
    fencingContract(makeStore);
    leaseStoreContract(makeStore);
    expiringRecordsContract(makeStore);
    refusingLimitStoreContract(makeStore);
    wakeWindowStoreContract(makeStore);
  });
}

import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { describeStateStoreContract } from '../../contracts/state-store.contract.ts';

describeStateStoreContract('in memory', async () => makeMemoryStateStore());

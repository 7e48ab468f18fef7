/**
 * The claims the interruption fixtures' instances belong to (fixtures/*.json name them), each
 * Initialized on its node, for the interruption function's tests and its fuzzing.
 */

import type { StateStore } from '../../../functions/ports/state-store.ts';
import type { FakeApiServer } from '../../../simulator/api-server/server.ts';
import { seedNode } from '../../adapters/kubernetes/support.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';

export const CLAIMS = [
  { name: 'default-spot1', instanceId: 'i-0b662ef9931388ba0', node: 'ip-10-0-1-1.ec2.internal' },
  { name: 'default-od001', instanceId: 'i-0c1d2e3f4a5b6c7d8', node: 'ip-10-0-1-2.ec2.internal' },
  { name: 'default-od002', instanceId: 'i-0e9f8a7b6c5d4e3f2', node: 'ip-10-0-1-3.ec2.internal' },
];

/** Stores each claim, Initialized, and puts its node in the API server. */
export async function seedClaims(
  state: Pick<StateStore, 'nodeClaims'>,
  server: FakeApiServer,
): Promise<void> {
  for (const c of CLAIMS) {
    const providerID = `aws:///us-east-1a/${c.instanceId}`;
    await state.nodeClaims.create({
      ...aNewNodeClaim({ name: c.name }),
      phase: 'Initialized',
      instanceId: c.instanceId,
      nodeName: c.node,
      providerID,
    });
    seedNode(server, c.node, { spec: { providerID } });
  }
}

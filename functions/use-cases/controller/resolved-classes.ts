/**
 * The classes with the AMIs, subnets, security groups, capacity reservations and placement group
 * they select now, as Karpenter keeps them in the class's status (the group in memory), so a node
 * on an older image, in another subnet, set of groups or placement group, or in a reservation no
 * longer selected shows as drifted. A class that cannot be resolved is judged without them; its
 * launches report the problem. Read with the snapshot, while EC2's status checks run
 * (pass-snapshot.ts); disruption judges drift by them.
 */
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodeClassResolver } from '../../ports/cloud-provider.ts';

export function resolvedClasses(
  cloud: NodeClassResolver,
  nodeClasses: readonly EC2NodeClass[],
): Promise<EC2NodeClass[]> {
  return Promise.all(
    nodeClasses.map(async (nodeClass) => {
      try {
        const resolved = await cloud.resolveNodeClass(nodeClass);
        const amis = resolved.amis.map((ami) => ({ id: ami.id, name: ami.name }));
        const { subnets, securityGroups, capacityReservations, placementGroup } = resolved;
        const status = {
          ...nodeClass.status,
          amis,
          subnets,
          securityGroups,
          capacityReservations,
          placementGroup,
        };
        return { ...nodeClass, status };
      } catch {
        return nodeClass;
      }
    }),
  );
}

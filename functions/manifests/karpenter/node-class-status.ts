/**
 * EC2NodeClass status as Karpenter resolves it: subnets (whose zones bound where nodes launch),
 * security groups, AMIs with their requirements, capacity reservations and the instance profile
 * (aws: pkg/apis/v1/ec2nodeclass_status.go). Karpenter writes it, so fields are typed but not
 * held to spec-side patterns, and fields from newer releases are carried.
 */
import * as z from 'zod';
import { conditions } from './conditions.ts';
import { timestamp } from './fields.ts';
import { resolvedRequirement } from './requirements.ts';

const subnet = z.looseObject({ id: z.string(), zone: z.string(), zoneID: z.string().optional() });
const securityGroup = z.looseObject({ id: z.string(), name: z.string().optional() });
const ami = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  deprecated: z.boolean().optional(),
  requirements: z.array(resolvedRequirement),
});
const capacityReservation = z.looseObject({
  availabilityZone: z.string(),
  id: z.string(),
  instanceMatchCriteria: z.enum(['open', 'targeted']),
  instanceType: z.string(),
  ownerID: z.string(),
  reservationType: z.enum(['default', 'capacity-block']).default('default'),
  state: z.enum(['active', 'expiring']).default('active'),
  endTime: timestamp.optional(),
  interruptible: z.boolean().optional(),
});

export const nodeClassStatus = z.looseObject({
  subnets: z.array(subnet).optional(),
  securityGroups: z.array(securityGroup).optional(),
  amis: z.array(ami).optional(),
  capacityReservations: z.array(capacityReservation).optional(),
  instanceProfile: z.string().optional(),
  conditions: conditions.optional(),
});

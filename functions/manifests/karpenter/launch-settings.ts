/**
 * EC2NodeClass settings passed through to the launch template: instance metadata (IMDS) with its
 * secure defaults, CPU options, network interfaces and connection tracking.
 */
import * as z from 'zod';
import { nonNegativeInt } from './fields.ts';
import { notSupportedYetMessage } from './not-supported-yet.ts';

const endpointState = z.enum(['enabled', 'disabled']);

/** Absent options become IMDSv2 with a hop limit of 1, which keeps pods away from node credentials. */
export const metadataOptions = z
  .strictObject({
    httpEndpoint: endpointState.default('enabled'),
    httpProtocolIPv6: endpointState.default('disabled'),
    httpPutResponseHopLimit: z.int().min(1).max(64).default(1),
    httpTokens: z.enum(['required', 'optional']).default('required'),
  })
  .prefault({});

const networkInterface = z.strictObject({
  networkCardIndex: nonNegativeInt,
  deviceIndex: nonNegativeInt,
  interfaceType: z.enum(['interface', 'efa-only']),
});
type NetworkInterface = z.output<typeof networkInterface>;

const hasPrimary = (list: readonly NetworkInterface[]) =>
  list.length === 0 ||
  list.some(
    (ni) => ni.networkCardIndex === 0 && ni.deviceIndex === 0 && ni.interfaceType === 'interface',
  );

/** Each card/device pair once, and at most one `efa-only` interface per card. */
const distinctSlots = (list: readonly NetworkInterface[]) =>
  list.every((ni) => {
    const sameCard = list.filter((other) => other.networkCardIndex === ni.networkCardIndex);
    const sameSlot = sameCard.filter((other) => other.deviceIndex === ni.deviceIndex);
    const efaOnly = sameCard.filter((other) => other.interfaceType === 'efa-only');
    return sameSlot.length === 1 && (ni.interfaceType !== 'efa-only' || efaOnly.length === 1);
  });

/** The CRD's two CEL rules on the list (aws: pkg/apis/v1/ec2nodeclass.go `NetworkInterfaces`). */
export const networkInterfaces = z
  .array(networkInterface)
  .max(150)
  .refine(
    hasPrimary,
    "networkInterfaces must include a primary interface with interfaceType='interface'",
  )
  .refine(
    distinctSlots,
    'networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card',
  );

/** Idle timeouts in seconds, within the ranges EC2 accepts; an empty object says nothing. */
export const connectionTracking = z
  .strictObject({
    tcpEstablishedTimeout: z.int().min(60).max(432000).optional(),
    udpStreamTimeout: z.int().min(60).max(180).optional(),
    udpTimeout: z.int().min(30).max(60).optional(),
  })
  .refine(
    (timeouts) =>
      timeouts.tcpEstablishedTimeout !== undefined ||
      timeouts.udpStreamTimeout !== undefined ||
      timeouts.udpTimeout !== undefined,
    'at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set',
  );

/**
 * Nested virtualization (aws v1.13+). `disabled` goes to the launch template as it is; `enabled`
 * also needs the instance types narrowed to those whose processors report the feature, which the
 * catalog does not say yet (aws: pkg/providers/instancetype/compatibility/compatibility.go).
 */
export const cpuOptions = z
  .strictObject({ nestedVirtualization: z.enum(['enabled', 'disabled']).optional() })
  .superRefine((options, ctx) => {
    if (options.nestedVirtualization !== 'enabled') return;
    ctx.addIssue({
      code: 'custom',
      message: notSupportedYetMessage(
        'spec.cpuOptions.nestedVirtualization: enabled',
        'instance types are not yet narrowed to those that support nested virtualization',
      ),
      path: ['nestedVirtualization'],
    });
  });

/**
 * EC2NodeClass settings passed through to the launch template: instance metadata (IMDS) with its
 * secure defaults, CPU options, network interfaces and connection tracking.
 */
import { z } from 'zod';
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

export const networkInterfaces = z.array(
  z.strictObject({
    networkCardIndex: nonNegativeInt,
    deviceIndex: nonNegativeInt,
    interfaceType: z.enum(['interface', 'efa-only']),
  }),
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

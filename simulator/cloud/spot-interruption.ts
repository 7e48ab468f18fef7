/**
 * A spot interruption in the simulated cloud: the warning EC2 puts on EventBridge two minutes
 * ahead (aws/karpenter-provider-aws pkg/controllers/interruption/messages/spotinterruption, in
 * the shape the interruption queue receives), and the moment the instance is reclaimed.
 */
import type { SimulatedInstance } from './simulated-instance.ts';

/** EC2 gives about two minutes' notice before it reclaims a spot instance. */
export const SPOT_NOTICE_MS = 120_000;

export interface SpotInterruptionWarning {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': 'EC2 Spot Instance Interruption Warning';
  readonly source: 'aws.ec2';
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: { readonly 'instance-id': string; readonly 'instance-action': 'terminate' };
}

export function spotInterruptionWarning(
  instance: SimulatedInstance,
  region: string,
  now: Date,
  sequence: number,
): SpotInterruptionWarning {
  return {
    version: '0',
    id: `00000000-0000-4000-a000-${String(sequence).padStart(12, '0')}`,
    'detail-type': 'EC2 Spot Instance Interruption Warning',
    source: 'aws.ec2',
    account: '111122223333',
    time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:ec2:${region}:111122223333:instance/${instance.instanceId}`],
    detail: { 'instance-id': instance.instanceId, 'instance-action': 'terminate' },
  };
}

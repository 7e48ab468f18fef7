/**
 * `spec.blockDeviceMappings`: the EBS volumes of each node. The root volume's size becomes the
 * node's ephemeral-storage capacity, so sizes are checked as the CRD checks them: whole `Gi`, `G`,
 * `Ti` or `T` up to the EBS maximum (aws: pkg/apis/v1/ec2nodeclass.go `BlockDevice`).
 */
import * as z from 'zod';
import { formatted } from './fields.ts';

/** The largest EBS volume (64 TB) in each unit the CRD accepts. */
const MAX_SIZE: Readonly<Record<string, number>> = { Gi: 59000, G: 64000, Ti: 58, T: 64 };
const VOLUME_SIZE = /^([1-9][0-9]*)(Gi|G|Ti|T)$/;

export function isVolumeSize(text: string): boolean {
  const match = VOLUME_SIZE.exec(text);
  if (match === null) return false;
  const [, amount = '', unit = ''] = match;
  return Number(amount) <= (MAX_SIZE[unit] ?? 0);
}

const ebs = z
  .strictObject({
    deleteOnTermination: z.boolean().optional(),
    encrypted: z.boolean().optional(),
    iops: z.int().optional(),
    kmsKeyID: z.string().optional(),
    snapshotID: z.string().optional(),
    throughput: z.int().optional(),
    volumeInitializationRate: z.int().min(100).max(300).optional(),
    volumeSize: formatted(
      isVolumeSize,
      'a volume size in whole Gi, G, Ti or T such as 20Gi, at most 59000Gi, 64000G, 58Ti or 64T',
    ).optional(),
    volumeType: z.enum(['standard', 'io1', 'io2', 'gp2', 'sc1', 'st1', 'gp3']).optional(),
  })
  .superRefine((volume, ctx) => {
    if (volume.snapshotID === undefined && volume.volumeSize === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'set volumeSize or snapshotID',
        path: ['volumeSize'],
      });
    }
    if (volume.volumeInitializationRate !== undefined && !volume.snapshotID) {
      ctx.addIssue({
        code: 'custom',
        message: 'volumeInitializationRate needs a snapshotID to initialize from',
        path: ['volumeInitializationRate'],
      });
    }
  });

const blockDeviceMapping = z.strictObject({
  deviceName: z.string().optional(),
  ebs: ebs.optional(),
  rootVolume: z.boolean().optional(),
});

export const blockDeviceMappings = z
  .array(blockDeviceMapping)
  .max(50)
  .superRefine((mappings, ctx) => {
    const roots = mappings.flatMap((mapping, index) => (mapping.rootVolume ? [index] : []));
    const second = roots[1];
    if (second === undefined) return;
    ctx.addIssue({
      code: 'custom',
      message: `only one block device mapping may be the root volume; mapping ${roots[0]} already is`,
      path: [second, 'rootVolume'],
    });
  });

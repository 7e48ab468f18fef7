/**
 * AL2 user data as Karpenter writes it (aws: pkg/providers/amifamily/bootstrap/eksbootstrap.go):
 * a MIME document holding the EC2NodeClass's own user data, then a shell script that runs the
 * EKS-optimized AMI's `/etc/eks/bootstrap.sh` with the cluster, the cluster DNS IP and the
 * kubelet flags. cloud-init runs the parts in order, so the user's scripts run before the kubelet
 * starts.
 */
import { isIPv4 } from 'node:net';
import type { BootstrapOptions } from './bootstrap-options.ts';
import { kubeletExtraArgs } from './kubelet-extra-args.ts';
import { ContentType, isMime, type MimePart, parseMime, part, serializeMime } from './mime.ts';

/** bootstrap.sh's options after the cluster name, each on its own continued line. */
function bootstrapFlags(options: BootstrapOptions): string[] {
  const { kubelet } = options;
  const dns = kubelet.clusterDNS?.[0];
  return [
    ...(dns !== undefined && !isIPv4(dns) ? ['--ip-family ipv6'] : []),
    ...(dns === undefined ? [] : [`--dns-cluster-ip '${dns}'`]),
    // Max pods comes from --max-pods below, not from bootstrap.sh's own ENI table.
    ...(kubelet.maxPods === undefined ? [] : ['--use-max-pods false']),
    `--kubelet-extra-args '${kubeletExtraArgs(options)}'`,
    ...(options.instanceStorePolicy === 'RAID0' ? ['--local-disks raid0'] : []),
  ];
}

/** The script; bootstrap.sh reads its options without an equal sign. */
export function eksBootstrapScript(options: BootstrapOptions): string {
  const { cluster } = options;
  const command = `/etc/eks/bootstrap.sh '${cluster.name}' --apiserver-endpoint '${cluster.endpoint}' --b64-cluster-ca '${cluster.certificateAuthority}'`;
  return [
    '#!/bin/bash -xe',
    'exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1',
    [command, ...bootstrapFlags(options)].join(' \\\n'),
  ].join('\n');
}

/** The user's parts: a MIME document's own, else the whole text as one shell script. */
function customParts(userData: string | undefined): MimePart[] {
  if (userData === undefined) return [];
  return isMime(userData) ? parseMime(userData) : [part(ContentType.shellScript, userData)];
}

export function eksBootstrapUserData(options: BootstrapOptions): string {
  const generated = part(ContentType.shellScript, eksBootstrapScript(options));
  return serializeMime([...customParts(options.customUserData), generated]);
}

/**
 * Windows user data as Karpenter writes it (aws: pkg/providers/amifamily/bootstrap/windows.go):
 * one `<powershell>` block holding the EC2NodeClass's own script first, then the EKS-optimized
 * AMI's `Start-EKSBootstrap.ps1` with the cluster, the kubelet flags (kubelet-extra-args.ts) and
 * the cluster DNS IP.
 */
import type { BootstrapOptions } from './bootstrap-options.ts';
import { kubeletExtraArgs } from './kubelet-extra-args.ts';

export function windowsUserData(options: BootstrapOptions): string {
  const { cluster, kubelet, customUserData } = options;
  const dns = kubelet.clusterDNS?.[0];
  const bootstrap = [
    `& $EKSBootstrapScriptFile -EKSClusterName '${cluster.name}' -APIServerEndpoint '${cluster.endpoint}'`,
    ` -Base64ClusterCA '${cluster.certificateAuthority}'`,
    ` -KubeletExtraArgs '${kubeletExtraArgs(options)}'`,
    dns === undefined ? '' : ` -DNSClusterIP '${dns}'`,
  ].join('');
  return [
    '<powershell>',
    ...(customUserData === undefined || customUserData === '' ? [] : [customUserData]),
    '[string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"',
    bootstrap,
    '</powershell>',
  ].join('\n');
}

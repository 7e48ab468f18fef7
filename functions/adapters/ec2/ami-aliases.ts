/**
 * The SSM parameters behind an AMI alias (`al2023@latest`, `al2023@v20240807`, `al2@latest`,
 * `bottlerocket@1.20.4`) and the instance types each image boots: its architecture and its
 * variant, standard, NVIDIA or Neuron (aws: pkg/providers/amifamily/{al2,al2023,bottlerocket,
 * windows,types}.go).
 */
import type { Architecture } from '../../domain/instance-types/catalog.ts';
import { Label } from '../../domain/labels.ts';
import type { NodeSelectorRequirement } from '../../domain/requirements/requirement.ts';
import { InvalidConfigError, NodeClassNotReadyError } from '../../ports/errors.ts';

export type Variant = 'standard' | 'nvidia' | 'neuron';

export interface AliasParameter {
  readonly path: string;
  readonly architecture: Architecture;
  readonly variant: Variant;
}

const EC2_ARCHITECTURE: Readonly<Record<Architecture, string>> = {
  amd64: 'x86_64',
  arm64: 'arm64',
};

/** EKS publishes no Neuron image for arm64. */
const AL2023_VARIANTS: readonly [Architecture, Variant][] = [
  ['amd64', 'standard'],
  ['amd64', 'nvidia'],
  ['amd64', 'neuron'],
  ['arm64', 'standard'],
  ['arm64', 'nvidia'],
];

function al2023(k8sVersion: string, version: string): AliasParameter[] {
  return AL2023_VARIANTS.map(([architecture, variant]) => {
    const arch = EC2_ARCHITECTURE[architecture];
    const name =
      version === 'latest'
        ? 'recommended'
        : `amazon-eks-node-al2023-${arch}-${variant}-${k8sVersion}-${version}`;
    const path = `/aws/service/eks/optimized-ami/${k8sVersion}/amazon-linux-2023/${arch}/${variant}/${name}/image_id`;
    return { path, architecture, variant };
  });
}

/**
 * AL2's images by parameter folder and versioned name: one GPU image (x86_64) serves NVIDIA and
 * Neuron devices alike.
 */
const AL2_VARIANTS: readonly [string, string, Architecture, Variant][] = [
  ['amazon-linux-2', 'node', 'amd64', 'standard'],
  ['amazon-linux-2-arm64', 'arm64-node', 'arm64', 'standard'],
  ['amazon-linux-2-gpu', 'gpu-node', 'amd64', 'nvidia'],
  ['amazon-linux-2-gpu', 'gpu-node', 'amd64', 'neuron'],
];

/** EKS publishes no AL2 image from Kubernetes 1.33 on (aws: pkg/providers/amifamily/ami.go). */
const AL2_LAST_MINOR = 32;

function al2(k8sVersion: string, version: string): AliasParameter[] {
  const minor = Number(k8sVersion.split('.')[1]);
  if (Number.isInteger(minor) && minor > AL2_LAST_MINOR) {
    // Karpenter sets AMIsReady false (UnsupportedAlias) with this message.
    throw new NodeClassNotReadyError(
      `resolving alias al2@${version}: AL2 aliases are no longer supported on EKS 1.33+ (see https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions-standard.html#kubernetes-1-33)`,
    );
  }
  return AL2_VARIANTS.map(([folder, node, architecture, variant]) => {
    const name =
      version === 'latest' ? 'recommended' : `amazon-eks-${node}-${k8sVersion}-${version}`;
    const path = `/aws/service/eks/optimized-ami/${k8sVersion}/${folder}/${name}/image_id`;
    return { path, architecture, variant };
  });
}

/** Bottlerocket's standard x86_64 image also runs Neuron devices; its NVIDIA images are separate. */
const BOTTLEROCKET_VARIANTS: readonly [string, Architecture, Variant][] = [
  ['', 'amd64', 'standard'],
  ['', 'amd64', 'neuron'],
  ['', 'arm64', 'standard'],
  ['-nvidia', 'amd64', 'nvidia'],
  ['-nvidia', 'arm64', 'nvidia'],
];

function bottlerocket(k8sVersion: string, version: string): AliasParameter[] {
  // GitHub tags Bottlerocket releases v1.20.4; the parameter path has no `v`.
  const trimmed = version.replace(/^v+/, '');
  return BOTTLEROCKET_VARIANTS.map(([flavor, architecture, variant]) => ({
    path: `/aws/service/bottlerocket/aws-k8s-${k8sVersion}${flavor}/${EC2_ARCHITECTURE[architecture]}/${trimmed}/image_id`,
    architecture,
    variant,
  }));
}

/**
 * Windows Server Core EKS-optimized images, amd64 only; only `latest` exists (aws:
 * pkg/providers/amifamily/windows.go `DescribeImageQuery`).
 */
function windows(year: string, k8sVersion: string): AliasParameter[] {
  const name = `Windows_Server-${year}-English-Core-EKS_Optimized-${k8sVersion}`;
  return [
    {
      path: `/aws/service/ami-windows-latest/${name}/image_id`,
      architecture: 'amd64',
      variant: 'standard',
    },
  ];
}

/** The parameters to read for an alias. Rejects aliases of families Nodesmith cannot bootstrap. */
export function aliasParameters(alias: string, k8sVersion: string): AliasParameter[] {
  const [family = '', version = ''] = alias.split('@');
  if (version === '') throw new InvalidConfigError(`resolving alias ${alias}: no version`);
  if (family.toLowerCase() === 'al2023') return al2023(k8sVersion, version);
  if (family.toLowerCase() === 'al2') return al2(k8sVersion, version);
  if (family.toLowerCase() === 'bottlerocket') return bottlerocket(k8sVersion, version);
  const year = /^windows(2019|2022|2025)$/.exec(family.toLowerCase())?.[1];
  if (year !== undefined) return windows(year, k8sVersion);
  throw new InvalidConfigError(
    `resolving alias ${alias}: only al2, al2023, bottlerocket and windows aliases are supported; select the AMI by id, name or tags with amiFamily Custom`,
  );
}

/** What an instance type must satisfy to boot an image of this architecture and variant. */
export function variantRequirements(
  architecture: Architecture,
  variant: Variant,
): NodeSelectorRequirement[] {
  const arch: NodeSelectorRequirement = { key: Label.arch, operator: 'In', values: [architecture] };
  switch (variant) {
    case 'standard':
      return [
        arch,
        { key: Label.instanceAcceleratorCount, operator: 'DoesNotExist' },
        { key: Label.instanceGpuCount, operator: 'DoesNotExist' },
      ];
    case 'nvidia':
      return [arch, { key: Label.instanceGpuCount, operator: 'Exists' }];
    case 'neuron':
      return [arch, { key: Label.instanceAcceleratorCount, operator: 'Exists' }];
  }
}

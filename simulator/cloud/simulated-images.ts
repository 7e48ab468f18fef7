/**
 * The images the simulated cloud boots, one per AMI family, version, architecture and variant,
 * named so that the id says which: `ami-sim-al2023` (the current standard amd64 image),
 * `ami-sim-al2023-v20260301`, `ami-sim-bottlerocket-1.20.4-arm64-nvidia`. The in-process cloud
 * resolves aliases to them, the simulated SSM answers the public alias parameters with them, and
 * the simulated EC2 describes them; all three use these functions, so they agree.
 */
import type { Architecture } from '../../functions/domain/instance-types/catalog.ts';

export type ImageVariant = 'standard' | 'nvidia' | 'neuron';

export interface SimulatedImage {
  readonly id: string;
  readonly name: string;
  /** `al2023`, `bottlerocket`, `windows2022`, … as the alias names the family. */
  readonly family: string;
  /** `latest` for the current image. */
  readonly version: string;
  readonly architecture: Architecture;
  readonly variant: ImageVariant;
}

const PREFIX = 'ami-sim-';
const ARCHITECTURES: readonly string[] = ['amd64', 'arm64'];
const VARIANTS: readonly string[] = ['standard', 'nvidia', 'neuron'];
/** The parameters' architecture names (EC2's) to Kubernetes'. */
const FROM_EC2: Readonly<Record<string, Architecture>> = { x86_64: 'amd64', arm64: 'arm64' };

/** The image of an alias (`al2023@latest`, `bottlerocket@1.20.4`) for one architecture and variant. */
export function aliasImageId(
  family: string,
  version: string,
  architecture: Architecture = 'amd64',
  variant: ImageVariant = 'standard',
): string {
  const versioned = version === 'latest' ? family : `${family}-${version}`;
  const plain = architecture === 'amd64' && variant === 'standard';
  return `${PREFIX}${versioned.toLowerCase()}${plain ? '' : `-${architecture}-${variant}`}`;
}

/** The image an id of aliasImageId's form names; undefined for any other id. */
export function simulatedImage(id: string): SimulatedImage | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const parts = id.slice(PREFIX.length).split('-');
  const [variant = '', architecture = ''] = [parts.at(-1), parts.at(-2)];
  const suffixed = ARCHITECTURES.includes(architecture) && VARIANTS.includes(variant);
  const [family = '', version = 'latest', ...rest] = suffixed ? parts.slice(0, -2) : parts;
  if (family === '' || rest.length > 0) return undefined;
  const image = {
    id,
    family,
    version,
    architecture: (suffixed ? architecture : 'amd64') as Architecture,
    variant: (suffixed ? variant : 'standard') as ImageVariant,
  };
  return {
    ...image,
    name: `simulated-${family}-${image.architecture}-${image.variant}-${version}`,
  };
}

type ParameterReader = (path: string) => string | undefined;

/** `/aws/service/eks/optimized-ami/<k8s>/amazon-linux-2023/<arch>/<variant>/<name>/image_id`. */
const al2023: ParameterReader = (path) => {
  const match =
    /^\/aws\/service\/eks\/optimized-ami\/[^/]+\/amazon-linux-2023\/(x86_64|arm64)\/(standard|nvidia|neuron)\/([^/]+)\/image_id$/.exec(
      path,
    );
  if (match === null) return undefined;
  const [, arch = '', variant = '', name = ''] = match;
  const version = name === 'recommended' ? 'latest' : (name.split('-').at(-1) ?? '');
  return aliasImageId('al2023', version, FROM_EC2[arch], variant as ImageVariant);
};

/**
 * `/aws/service/eks/optimized-ami/<k8s>/amazon-linux-2[-arm64|-gpu]/<name>/image_id`, up to
 * Kubernetes 1.32: EKS publishes no AL2 image after. The GPU image is amd64 and NVIDIA's.
 */
const al2: ParameterReader = (path) => {
  const match =
    /^\/aws\/service\/eks\/optimized-ami\/1\.(\d+)\/amazon-linux-2(-arm64|-gpu)?\/([^/]+)\/image_id$/.exec(
      path,
    );
  if (match === null || Number(match[1]) > 32) return undefined;
  const [, , flavor, name = ''] = match;
  const version = name === 'recommended' ? 'latest' : (name.split('-').at(-1) ?? '');
  const architecture = flavor === '-arm64' ? 'arm64' : 'amd64';
  return aliasImageId('al2', version, architecture, flavor === '-gpu' ? 'nvidia' : 'standard');
};

/** `/aws/service/bottlerocket/aws-k8s-<k8s>[-nvidia]/<arch>/<version>/image_id`. */
const bottlerocket: ParameterReader = (path) => {
  const match =
    /^\/aws\/service\/bottlerocket\/aws-k8s-[0-9.]+(-nvidia)?\/(x86_64|arm64)\/([^/]+)\/image_id$/.exec(
      path,
    );
  if (match === null) return undefined;
  const [, nvidia, arch = '', version = ''] = match;
  return aliasImageId('bottlerocket', version, FROM_EC2[arch], nvidia ? 'nvidia' : 'standard');
};

/** `/aws/service/ami-windows-latest/Windows_Server-<year>-English-Core-EKS_Optimized-<k8s>/image_id`. */
const windows: ParameterReader = (path) => {
  const match =
    /^\/aws\/service\/ami-windows-latest\/Windows_Server-(\d{4})-English-Core-EKS_Optimized-[0-9.]+\/image_id$/.exec(
      path,
    );
  return match === null ? undefined : aliasImageId(`windows${match[1]}`, 'latest');
};

/**
 * The image id a public AMI alias parameter holds (the paths functions/adapters/ec2/ami-aliases.ts
 * reads), or undefined for a parameter AWS does not publish. Bottlerocket's standard x86_64 image
 * is also its Neuron image, and AL2's GPU image serves Neuron too, so no parameter names a
 * Bottlerocket or AL2 Neuron variant.
 */
export function aliasParameterImageId(path: string): string | undefined {
  return al2023(path) ?? al2(path) ?? bottlerocket(path) ?? windows(path);
}

/**
 * What a cloud assembly (the directory `cdk synth -o` writes) holds for the simulated account:
 * the stack's template and, for each function bundled as an asset, the directory of its code
 * (`Metadata.aws:asset:path`) and its `Handler`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CloudFormationTemplate } from '../iam/template-policies.ts';

export type { CloudFormationTemplate };

/** The logical id and properties of each resource of the type, in template order. */
export function resourcesOfType(
  template: CloudFormationTemplate,
  type: string,
): [string, Readonly<Record<string, unknown>>][] {
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === type)
    .map(([id, resource]) => [id, resource.Properties ?? {}]);
}

export interface FunctionAsset {
  /** The bundle's directory in the cloud assembly: what Lambda would unzip as the task root. */
  readonly directory: string;
  /** `file.export`, as the template's `Handler`. */
  readonly handler: string;
}

interface Manifest {
  readonly artifacts: Readonly<
    Record<string, { readonly type: string; readonly properties?: { templateFile?: string } }>
  >;
}

function stackArtifact(outdir: string): { stackName: string; templateFile: string } {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as Manifest;
  const stacks = Object.entries(manifest.artifacts).filter(
    ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
  );
  const [stack, ...others] = stacks;
  if (stack === undefined || others.length > 0) {
    throw new Error(`${outdir} holds ${stacks.length} stacks; the simulated account takes one`);
  }
  const [stackName, artifact] = stack;
  return {
    stackName,
    templateFile: artifact.properties?.templateFile ?? `${stackName}.template.json`,
  };
}

/** The stack's template and its bundled functions' code, by logical id. */
export function functionAssets(outdir: string): {
  stackName: string;
  template: CloudFormationTemplate;
  functions: Record<string, FunctionAsset>;
} {
  const { stackName, templateFile } = stackArtifact(outdir);
  const template = JSON.parse(
    readFileSync(join(outdir, templateFile), 'utf8'),
  ) as CloudFormationTemplate;
  const functions: Record<string, FunctionAsset> = {};
  for (const [id, resource] of Object.entries(template.Resources)) {
    const metadata = (resource as { Metadata?: Record<string, unknown> }).Metadata;
    const assetPath = metadata?.['aws:asset:path'];
    const handler = resource.Properties?.Handler;
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    if (typeof assetPath !== 'string' || typeof handler !== 'string') continue;
    functions[id] = { directory: join(outdir, assetPath), handler };
  }
  return { stackName, template, functions };
}

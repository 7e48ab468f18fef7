/**
 * The account's launch templates: created once by name (a second create of the name is refused
 * as EC2 refuses it), described by name, and read by CreateFleet for the image and user data
 * an instance boots with.
 */
import type {
  CreateLaunchTemplateCommandInput,
  LaunchTemplate,
  RequestLaunchTemplateData,
} from '@aws-sdk/client-ec2';
import { AwsError } from '../aws-service.ts';

export interface StoredLaunchTemplate {
  readonly summary: LaunchTemplate;
  readonly data: RequestLaunchTemplateData;
}

export function launchTemplateNotFound(): AwsError {
  return new AwsError(
    'InvalidLaunchTemplateName.NotFoundException',
    'At least one of the launch templates specified in the request does not exist.',
  );
}

export class Ec2LaunchTemplates {
  readonly #byName = new Map<string, StoredLaunchTemplate>();

  create(input: CreateLaunchTemplateCommandInput, now: Date): LaunchTemplate {
    const name = input.LaunchTemplateName ?? '';
    if (this.#byName.has(name)) {
      throw new AwsError(
        'InvalidLaunchTemplateName.AlreadyExistsException',
        `Launch template name already in use.`,
      );
    }
    const tags = (input.TagSpecifications ?? [])
      .filter((spec) => spec.ResourceType === 'launch-template')
      .flatMap((spec) => spec.Tags ?? []);
    const summary: LaunchTemplate = {
      LaunchTemplateId: `lt-${String(this.#byName.size + 1).padStart(17, '0')}`,
      LaunchTemplateName: name,
      CreateTime: now,
      CreatedBy: 'arn:aws:iam::111122223333:root',
      DefaultVersionNumber: 1,
      LatestVersionNumber: 1,
      Tags: tags,
    };
    this.#byName.set(name, { summary, data: input.LaunchTemplateData ?? {} });
    return summary;
  }

  /** By name or id; undefined when there is none. */
  find(spec: {
    LaunchTemplateName?: string;
    LaunchTemplateId?: string;
  }): StoredLaunchTemplate | undefined {
    if (spec.LaunchTemplateName !== undefined) return this.#byName.get(spec.LaunchTemplateName);
    return [...this.#byName.values()].find(
      (t) => t.summary.LaunchTemplateId === spec.LaunchTemplateId,
    );
  }

  /** Every template, for the authorizer's lookups. */
  all(): StoredLaunchTemplate[] {
    return [...this.#byName.values()];
  }

  /** The named templates (all when none are named); an unknown name refuses the whole call. */
  describe(names: readonly string[] | undefined): LaunchTemplate[] {
    if (names === undefined || names.length === 0) {
      return [...this.#byName.values()].map((t) => t.summary);
    }
    return names.map((name) => {
      const template = this.#byName.get(name);
      if (template === undefined) throw launchTemplateNotFound();
      return template.summary;
    });
  }
}

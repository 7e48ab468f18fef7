/**
 * Launch templates, created once per configuration and reused: a name is looked up in memory,
 * then with DescribeLaunchTemplates, and created only when EC2 has none by that name (aws:
 * pkg/providers/launchtemplate/launchtemplate.go `ensureLaunchTemplate`). Launches running at
 * once share one lookup per name, as Karpenter's `EnsureAll` holds its lock, so a burst of
 * claims asks EC2 once per template, not once per fleet. Nodesmith never deletes a template
 * another invocation may be launching with; an orphaned template costs nothing.
 */
import { CreateLaunchTemplateCommand, DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Ec2Api, Now } from './clients.ts';
import {
  awsErrorCode,
  isLaunchTemplateNotFound,
  LAUNCH_TEMPLATE_EXISTS_CODE,
  toPortError,
} from './errors.ts';
import { type LaunchTemplateConfig, launchTemplateName } from './launch-template-config.ts';
import { toLaunchTemplateData } from './launch-template-data.ts';
import { toTags } from './mappers.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { TagKey } from './tags.ts';

export class LaunchTemplates {
  readonly #ec2: Ec2Api;
  readonly #clusterName: string;
  readonly #known: TtlCache<true>;

  constructor(options: { ec2: Ec2Api; clusterName: string; now: Now }) {
    this.#ec2 = options.ec2;
    this.#clusterName = options.clusterName;
    this.#known = new TtlCache(options.now, RefreshInterval.launchTemplatesMs);
  }

  /** The name of a template with this configuration, created when EC2 has none. */
  async ensure(config: LaunchTemplateConfig): Promise<string> {
    const name = launchTemplateName(this.#clusterName, config);
    await this.#known.getOrLoad(name, async () => {
      if (!(await this.#exists(name))) await this.#create(name, config);
      return true;
    });
    return name;
  }

  /** Forgets templates CreateFleet could not find, so the next `ensure` looks again. */
  invalidate(names: readonly string[]): void {
    for (const name of names) this.#known.delete(name);
  }

  async #exists(name: string): Promise<boolean> {
    try {
      const output = await this.#ec2.send(
        new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: [name] }),
      );
      return (output.LaunchTemplates ?? []).length > 0;
    } catch (err) {
      if (isLaunchTemplateNotFound(err)) return false;
      throw toPortError(err, `describing launch template ${name}`);
    }
  }

  async #create(name: string, config: LaunchTemplateConfig): Promise<void> {
    const tags = { ...config.tags, [TagKey.launchTemplateCluster]: this.#clusterName };
    try {
      await this.#ec2.send(
        new CreateLaunchTemplateCommand({
          LaunchTemplateName: name,
          LaunchTemplateData: toLaunchTemplateData(config),
          TagSpecifications: [{ ResourceType: 'launch-template', Tags: toTags(tags) }],
        }),
      );
    } catch (err) {
      // Another invocation created the same configuration first: it is the template wanted.
      if (awsErrorCode(err) === LAUNCH_TEMPLATE_EXISTS_CODE) return;
      throw toPortError(err, `creating launch template ${name}`);
    }
  }
}

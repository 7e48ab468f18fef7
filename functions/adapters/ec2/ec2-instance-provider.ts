/**
 * Launches, terminates and lists the instances behind NodeClaims (aws:
 * pkg/providers/instance/instance.go). A launch resolves the EC2NodeClass, plans the fleet,
 * makes sure its launch templates exist and calls CreateFleet once; when a template vanished
 * between the lookup and the call, it is recreated and the launch tried once more.
 */
import {
  CreateFleetCommand,
  type CreateFleetCommandOutput,
  CreateTagsCommand,
  type Filter,
  type Instance,
  paginateDescribeInstanceStatus,
  paginateDescribeInstances,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import type { InstanceStatus } from '../../domain/interruption/instance-status.ts';
import { Label } from '../../domain/labels.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type {
  InstanceProvider,
  LaunchContext,
  LaunchResult,
  ManagedInstance,
  NodeClassResolver,
  ResolvedNodeClass,
} from '../../ports/cloud-provider.ts';
import { InsufficientCapacityError } from '../../ports/errors.ts';
import type { CapacityReservationProvider } from './capacity-reservations.ts';
import type { Ec2Api, Now } from './clients.ts';
import type { ClusterSettings } from './cluster-settings.ts';
import { isLaunchTemplateNotFound, isNotFound, toPortError } from './errors.ts';
import { type FleetTemplate, toCreateFleetInput } from './fleet-request.ts';
import { type FleetOutcome, interpretFleet } from './fleet-result.ts';
import { type LaunchPlan, planLaunch, reservationsByOffering } from './launch-plan.ts';
import { launchTemplateConfig } from './launch-template-config.ts';
import type { LaunchTemplates } from './launch-templates.ts';
import { fromInstance, fromInstanceStatus } from './mappers.ts';
import { collect } from './pages.ts';
import { clusterTagKey, launchTags, TagKey } from './tags.ts';
import { bootstrapOptions } from './user-data/bootstrap-options.ts';

/**
 * DescribeInstanceStatus ANDs its filters, so each of these is a call of its own: impaired
 * instance checks, impaired system checks, and the scheduled events Karpenter vacates a host for
 * (aws: pkg/providers/instancestatus/instancestatus.go instanceStatusFilters).
 */
const STATUS_FILTERS: readonly Filter[][] = [
  [{ Name: 'instance-status.status', Values: ['impaired'] }],
  [{ Name: 'system-status.status', Values: ['impaired'] }],
  [
    {
      Name: 'event.code',
      Values: [
        'instance-reboot',
        'system-reboot',
        'system-maintenance',
        'instance-retirement',
        'instance-stop',
      ],
    },
  ],
];

/** Instances not yet terminated; a stopped one still holds its claim (aws: instance.go). */
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

export interface InstanceProviderOptions {
  readonly ec2: Ec2Api;
  readonly cluster: ClusterSettings;
  readonly now: Now;
  readonly resolver: NodeClassResolver;
  readonly launchTemplates: LaunchTemplates;
  /** Told of reserved launches and of reservations EC2 found full. */
  readonly capacityReservations?: CapacityReservationProvider;
}

interface Launch {
  readonly claim: NodeClaimRecord;
  readonly context: LaunchContext;
  readonly resolved: ResolvedNodeClass;
  readonly plan: LaunchPlan;
}

export class Ec2InstanceProvider implements InstanceProvider {
  readonly #options: InstanceProviderOptions;

  constructor(options: InstanceProviderOptions) {
    this.#options = options;
  }

  async launch(claim: NodeClaimRecord, context: LaunchContext): Promise<LaunchResult> {
    const resolved = await this.#options.resolver.resolveNodeClass(context.nodeClass);
    const launch: Launch = {
      claim,
      context,
      resolved,
      plan: planLaunch({ claim, context, resolved }),
    };
    let outcome = await this.#attempt(launch);
    if (outcome.kind === 'templateMissing') outcome = await this.#attempt(launch);
    this.#countReservations(launch, outcome);
    if (outcome.kind === 'launched') return outcome.instance;
    if (outcome.kind === 'failed') throw outcome.error;
    throw new Error(`launching node claim ${claim.name}: its launch templates vanished twice`);
  }

  /**
   * A launch into a reservation takes one of its instances; a reservation EC2 found without
   * capacity offers nothing more until described again (aws: instance.go
   * updateUnavailableOfferingsCache, cloudprovider.go MarkLaunched).
   */
  #countReservations(launch: Launch, outcome: FleetOutcome): void {
    const reservations = this.#options.capacityReservations;
    if (reservations === undefined || launch.plan.capacityType !== 'reserved') return;
    const byOffering = reservationsByOffering(launch.plan);
    const failed =
      outcome.kind === 'launched'
        ? (outcome.instance.unavailableOfferings ?? [])
        : outcome.kind === 'failed' && outcome.error instanceof InsufficientCapacityError
          ? outcome.error.offerings
          : [];
    for (const o of failed) {
      const id = byOffering.get(`${o.instanceType}/${o.zone}`);
      if (id !== undefined) reservations.markUnavailable(id);
    }
    const launched =
      outcome.kind === 'launched' ? outcome.instance.network?.capacityReservationId : undefined;
    if (launched !== undefined) reservations.markLaunched(launched);
  }

  async terminate(instanceId: string): Promise<void> {
    try {
      await this.#options.ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] }));
    } catch (err) {
      if (isNotFound(err)) return;
      throw toPortError(err, `terminating instance ${instanceId}`);
    }
  }

  async listManaged(): Promise<readonly ManagedInstance[]> {
    const { name } = this.#options.cluster;
    return this.#describeWhere(
      [{ Name: `tag:${TagKey.ownership}`, Values: [name] }],
      'listing managed instances',
    );
  }

  async describe(instanceIds: readonly string[]): Promise<readonly ManagedInstance[]> {
    if (instanceIds.length === 0) return [];
    const { name } = this.#options.cluster;
    // A filter rather than `InstanceIds`, which fails the whole call for one unknown id.
    return this.#describeWhere(
      [
        { Name: 'instance-id', Values: [...instanceIds] },
        { Name: `tag:${clusterTagKey(name)}`, Values: ['owned'] },
      ],
      `describing instances ${instanceIds.join(', ')}`,
    );
  }

  async claimOwnership(instanceIds: readonly string[]): Promise<void> {
    if (instanceIds.length === 0) return;
    const Tags = [{ Key: TagKey.ownership, Value: this.#options.cluster.name }];
    try {
      await this.#options.ec2.send(new CreateTagsCommand({ Resources: [...instanceIds], Tags }));
    } catch (err) {
      throw toPortError(err, `tagging instances ${instanceIds.join(', ')} as Nodesmith's`);
    }
  }

  async instanceStatuses(): Promise<readonly InstanceStatus[]> {
    const byId = new Map<string, InstanceStatus>();
    try {
      for (const Filters of STATUS_FILTERS) {
        const pages = paginateDescribeInstanceStatus({ client: this.#options.ec2 }, { Filters });
        for (const status of await collect(pages, (page) => page.InstanceStatuses)) {
          const read = fromInstanceStatus(status);
          if (!byId.has(read.instanceId)) byId.set(read.instanceId, read);
        }
      }
    } catch (err) {
      throw toPortError(err, 'describing instance status checks');
    }
    return [...byId.values()];
  }

  async #describeWhere(filters: readonly Filter[], doing: string): Promise<ManagedInstance[]> {
    const Filters = [...filters, { Name: 'instance-state-name', Values: LIVE_STATES }];
    const clusterName = this.#options.cluster.name;
    try {
      const pages = paginateDescribeInstances({ client: this.#options.ec2 }, { Filters });
      const reservations = await collect(pages, (page) => page.Reservations);
      const instances: Instance[] = reservations.flatMap((r) => r.Instances ?? []);
      return instances
        .map((instance) => fromInstance(instance, clusterName))
        .sort((a, b) => (a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0));
    } catch (err) {
      throw toPortError(err, doing);
    }
  }

  async #attempt(launch: Launch): Promise<FleetOutcome> {
    const templates = await this.#ensureTemplates(launch);
    const { claim, context, plan } = launch;
    const input = toCreateFleetInput({
      claimName: claim.name,
      capacityType: plan.capacityType,
      templates,
      prioritized: plan.prioritized,
      tags: launchTags(this.#options.cluster.name, claim, context.nodeClass),
      context: context.nodeClass.spec.context,
      ...(plan.reservation === undefined ? {} : { reservation: plan.reservation }),
    });
    const names = templates.map((template) => template.launchTemplateName);
    const outcome = await this.#createFleet(input, launch).catch((err: unknown) => {
      if (isLaunchTemplateNotFound(err)) return { kind: 'templateMissing' } as const;
      throw toPortError(err, `launching node claim ${claim.name}`);
    });
    if (outcome.kind === 'templateMissing') this.#options.launchTemplates.invalidate(names);
    return outcome;
  }

  async #createFleet(
    input: ReturnType<typeof toCreateFleetInput>,
    launch: Launch,
  ): Promise<FleetOutcome> {
    const output: CreateFleetCommandOutput = await this.#options.ec2.send(
      new CreateFleetCommand(input),
    );
    return interpretFleet(output, {
      claimName: launch.claim.name,
      capacityType: launch.plan.capacityType,
      subnetZones: launch.plan.subnetZones,
      securityGroupIds: launch.resolved.securityGroups.map((group) => group.id),
      launchTime: this.#options.now().toISOString(),
      reservations: reservationsByOffering(launch.plan),
    });
  }

  /**
   * One template per group: the same AMI, max pods and EFA interfaces give the same template.
   * The user data writers, with the YAML and TOML libraries, load with the first launch: a pass
   * that launches nothing never compiles them (docs/design.md §7.1).
   */
  async #ensureTemplates({ context, resolved, plan }: Launch): Promise<FleetTemplate[]> {
    const { cluster, launchTemplates } = this.#options;
    const { userDataFor } = await import('./user-data/user-data.ts');
    const partition = context.labels[Label.placementGroupPartition];
    return Promise.all(
      plan.groups.map(async (group) => {
        const options = bootstrapOptions({
          ...context,
          cluster,
          capacityType: plan.capacityType,
          maxPods: group.maxPods,
        });
        const userData = userDataFor(resolved.amiFamily, options, resolved.name);
        const config = launchTemplateConfig({
          clusterName: cluster.name,
          nodeClass: context.nodeClass,
          resolved,
          imageId: group.imageId,
          userData,
          ...(group.reservation === undefined ? {} : { capacityReservation: group.reservation }),
          efaCount: group.efaCount,
          ...(partition === undefined ? {} : { partition }),
        });
        return { launchTemplateName: await launchTemplates.ensure(config), group };
      }),
    );
  }
}

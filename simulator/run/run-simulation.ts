/**
 * Runs a scenario in the simulated world, one simulated second at a time: the workload
 * arrives, kubelets boot, kube-scheduler binds or marks pods, the audit backend posts to the
 * relay, the work queue delivers due wakes to the controller, and every few seconds the cluster
 * is sampled for the report. The run ends when every pod runs and nothing is in flight, or at
 * the scenario's time limit.
 */
import { clusterLimits } from '../../functions/domain/limits/cluster-limits.ts';
import type { OfferingKey } from '../../functions/domain/state/unavailable-offering.ts';
import type { Scenario, ScenarioStep } from '../scenarios/scenario.ts';
import { configurePools } from './configure-pools.ts';
import type { SimulationOptions } from './simulation-options.ts';
import { SimulationRecorder } from './simulation-recorder.ts';
import type { SimulationReport } from './simulation-report.ts';
import { SIMULATION_START, World, type WorldOptions } from './world.ts';

const TICK_SECONDS = 60;
const SAMPLE_EVERY_SECONDS = 5;
/** The apiserver's batch webhook backend flushes at least this often (here: every second). */
const AUDIT_FLUSH_SECONDS = 1;

/** Every offering of the instance types the scenario's pools may launch, cheapest first. */
async function poolOfferings(world: World): Promise<(OfferingKey & { pricePerHour: number })[]> {
  const pools = await world.state.nodePools.list();
  const classNames = new Set(pools.map((p) => p.document.spec.template.spec.nodeClassRef.name));
  const offerings: (OfferingKey & { pricePerHour: number })[] = [];
  for (const stored of await world.state.nodeClasses.list()) {
    if (!classNames.has(stored.document.metadata.name)) continue;
    for (const type of await world.cloud.instanceTypes(stored.document)) {
      for (const o of type.offerings) offerings.push({ instanceType: type.name, ...o });
    }
  }
  return offerings.sort(
    (a, b) => a.pricePerHour - b.pricePerHour || (a.instanceType < b.instanceType ? -1 : 1),
  );
}

/** Takes away the capacity the scenario says is gone, and holds the reservations it says the account has. */
async function exhaustCapacity(world: World, scenario: Scenario): Promise<void> {
  world.cloud.ec2.reservations.push(...(scenario.reservations ?? []));
  const offerings = await poolOfferings(world);
  const dryZones = new Set(scenario.spotExhaustedZones ?? []);
  const exhausted: OfferingKey[] = [
    ...(scenario.exhausted ?? []),
    ...offerings.slice(0, scenario.exhaustCheapest ?? 0),
    ...offerings.filter((o) => o.capacityType === 'spot' && dryZones.has(o.zone)),
  ];
  for (const o of exhausted) world.cloud.capacity.set(o, 0);
}

/**
 * What happens at a step: the workload changes, pools are changed, EC2 reclaims spot capacity,
 * someone deletes nodes.
 */
async function takeStep(
  world: World,
  recorder: SimulationRecorder,
  t: number,
  step: ScenarioStep,
): Promise<void> {
  world.create('pods', step.pods);
  for (const key of step.removePods ?? []) world.workloads.scaleDown(key);
  if (step.apply !== undefined) await configurePools(world.state, step.apply);
  recorder.note(t, step.description);
  if (step.interruptSpot !== undefined) {
    const interrupted = await world.interruptSpot(step.interruptSpot);
    recorder.note(t, `EC2 warns it reclaims ${interrupted.join(', ') || 'nothing'} in two minutes`);
  }
  for (const deleted of await world.deleteNodes(step.deleteNodes ?? 0)) {
    const after = deleted.heldBy.length === 0 ? 'gone at once' : `held by ${deleted.heldBy}`;
    recorder.note(t, `kubectl delete node ${deleted.name}: ${after}`);
  }
}

/** One simulated second, in the order things happen in a cluster. */
async function simulateSecond(
  world: World,
  recorder: SimulationRecorder,
  t: number,
  steps: ScenarioStep[],
): Promise<void> {
  world.clock.advanceTo(SIMULATION_START + t * 1000);
  world.faults.second?.(t, world);
  for (let next = steps[0]; next !== undefined && next.at <= t; next = steps[0]) {
    steps.shift();
    await takeStep(world, recorder, t, next);
  }
  world.cloud.reclaim();
  // Interruption warnings due again (a failed one's redelivery) arrive before the kubelets' second.
  await world.deliver([]);
  world.kubelets.tick();
  world.workloads.tick();
  recorder.scheduled(t, world.scheduler.cycle());
  // The second's webhook calls answered; the batch webhook backend flushes at least this often.
  if (t % AUDIT_FLUSH_SECONDS === 0) await world.relayWrites();
  if (t % TICK_SECONDS === 0) await world.queue.wake({ source: 'schedule', reason: 'minute tick' });
  await recorder.passes(t, world.queue.due());
}

/** What the scenario starts from: pools, limits, what already runs, capacity that is gone. */
async function prepare(world: World, scenario: Scenario): Promise<void> {
  await configurePools(world.state, scenario.manifests);
  if (scenario.clusterLimits !== undefined) {
    await world.state.clusterLimits.create(clusterLimits(scenario.clusterLimits), 'scenario');
  }
  for (const instance of scenario.instances ?? []) world.cloud.startForeign(instance);
  world.seed(scenario.cluster ?? []);
  await exhaustCapacity(world, scenario);
}

/** The world a scenario runs in, with the run's delivery faults and state store. */
function worldOptions(scenario: Scenario, options: SimulationOptions): WorldOptions {
  const namespaces = [
    ...new Set(
      scenario.steps.flatMap((s) =>
        s.pods.map((p) => String((p.metadata as { namespace?: string }).namespace ?? 'default')),
      ),
    ),
  ];
  return {
    region: scenario.region,
    zones: scenario.zones,
    seed: options.seed,
    namespaces,
    prices: scenario.prices ?? 'market',
    ...(options.wake ? { wake: options.wake } : {}),
    ...(options.duplicateWakes ? { duplicateWakes: true } : {}),
    ...(options.state ? { state: options.state } : {}),
    ...(options.concurrentPasses ? { concurrentPasses: options.concurrentPasses } : {}),
    ...(options.cloudSeenByController
      ? { cloudSeenByController: options.cloudSeenByController }
      : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(scenario.adoptKarpenterNodes || options.adoptKarpenterNodes
      ? { adoptKarpenterNodes: true }
      : {}),
    ...(options.selfManaged ? { selfManaged: true } : {}),
    // As deployed, the functions verify the API server's TLS as on EKS.
    ...(options.deploy ? { deploy: options.deploy, tls: true } : {}),
  };
}

export async function runSimulation(
  scenario: Scenario,
  options: SimulationOptions,
): Promise<SimulationReport> {
  const world = await World.start(worldOptions(scenario, options));
  try {
    await prepare(world, scenario);
    const recorder = new SimulationRecorder(world, scenario, options);
    const steps = [...scenario.steps];
    const lastStep = Math.max(0, ...steps.map((s) => s.at));
    const earliestEnd = lastStep + (scenario.quietSeconds ?? 0);
    for (let t = 0; t <= scenario.maxSeconds; t++) {
      await simulateSecond(world, recorder, t, steps);
      if (t % SAMPLE_EVERY_SECONDS === 0) recorder.sample(t);
      if (steps.length === 0 && t >= earliestEnd && (await recorder.settled())) {
        recorder.sample(t);
        break;
      }
    }
    return await recorder.report();
  } finally {
    await world.close();
  }
}

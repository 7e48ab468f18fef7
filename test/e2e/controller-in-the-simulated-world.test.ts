/**
 * The controller end to end (issue: the autoscaler runs): the real relay and controller
 * handlers in the simulated world, checked against the invariants of docs/design.md §5 — every pod
 * placed, no node over capacity, no double launch under duplicated or racing wakes, nothing leaked
 * after a crash at any step of a launch, capacity errors resolved in the pass that met them.
 */
import { describe, expect, it } from 'vitest';
import type { NodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import type { CloudProvider } from '../../functions/ports/cloud-provider.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { makeMemoryStateStore } from '../../simulator/memory/memory-state-store.ts';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import type { SimulationReport } from '../../simulator/run/simulation-report.ts';
import { burstScenario, capacityErrorsScenario } from '../../simulator/scenarios/burst.ts';

function invariantsHeld(report: SimulationReport): void {
  for (const invariant of report.summary.invariants) {
    expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
  }
}

describe('a burst in the simulated world', () => {
  it('ends with every one of 500 mixed pods running and no node over capacity', async () => {
    const report = await runSimulation(burstScenario(11, 500), { seed: 11 });
    expect(report.summary.pods).toEqual({ total: 500, running: 500, pending: 0 });
    invariantsHeld(report);
    // Consolidation may take back what the burst's later batches made redundant; nothing else
    // ends an instance, and every ended one was accounted for.
    const { launched, terminated, running } = report.summary.nodes;
    expect(running).toBe(launched - terminated);
    expect(report.summary.leakedInstances).toBe(0);
  }, 120_000);

  it('launches exactly as many instances when every wake is delivered twice', async () => {
    const once = await runSimulation(burstScenario(3, 200), { seed: 3 });
    const twice = await runSimulation(burstScenario(3, 200), { seed: 3, duplicateWakes: true });
    invariantsHeld(twice);
    expect(twice.summary.launches).toBe(once.summary.launches);
    expect(twice.summary.costPerHour).toBe(once.summary.costPerHour);
  }, 120_000);

  it('resolves capacity errors on the preferred offerings in the same pass', async () => {
    const report = await runSimulation(capacityErrorsScenario(5, 200), { seed: 5 });
    invariantsHeld(report);
    expect(report.summary.replans).toBeGreaterThan(0);
    expect(report.summary.pods.pending).toBe(0);
    const replanned = report.timeline.filter((line) => line.message.startsWith('re-planned'));
    expect(replanned.length).toBeGreaterThan(0);
  }, 120_000);
});

/** The state store, failing once right after the first write `fails` picks has landed. */
function crashingAfter(
  state: StateStore,
  fails: (method: 'create' | 'update', claim: NodeClaimRecord) => boolean,
): StateStore {
  let crashed = false;
  const once = async <T>(
    method: 'create' | 'update',
    claim: NodeClaimRecord,
    write: Promise<T>,
  ) => {
    const done = await write;
    if (!crashed && fails(method, claim)) {
      crashed = true;
      throw new Error(`the invocation died after ${method} of ${claim.name}`);
    }
    return done;
  };
  const claims = state.nodeClaims;
  return {
    ...state,
    nodeClaims: {
      ...claims,
      list: () => claims.list(),
      get: (name) => claims.get(name),
      delete: (name, options) => claims.delete(name, options),
      listByPhase: (phase) => claims.listByPhase(phase),
      listByPool: (pool) => claims.listByPool(pool),
      findByInstanceId: (id) => claims.findByInstanceId(id),
      create: (claim, options) =>
        once('create', { ...claim, version: 1 }, claims.create(claim, options)),
      update: (claim, options) => once('update', claim, claims.update(claim, options)),
    },
  };
}

/** The cloud, dying once right after its first CreateFleet succeeded. */
function crashingAfterLaunch(cloud: CloudProvider): CloudProvider {
  let crashed = false;
  return {
    resolveNodeClass: (nodeClass) => cloud.resolveNodeClass(nodeClass),
    instanceTypes: (nodeClass, options) => cloud.instanceTypes(nodeClass, options),
    prices: () => cloud.prices(),
    terminate: (id) => cloud.terminate(id),
    listManaged: () => cloud.listManaged(),
    describe: (ids) => cloud.describe(ids),
    claimOwnership: (ids) => cloud.claimOwnership(ids),
    instanceStatuses: () => cloud.instanceStatuses(),
    launch: async (claim, context) => {
      const launched = await cloud.launch(claim, context);
      if (!crashed) {
        crashed = true;
        throw new Error(`the invocation died after CreateFleet for ${claim.name}`);
      }
      return launched;
    },
  };
}

describe('a pass that dies part-way through a launch', () => {
  it.each([
    ['after the claim is written', (m: string) => m === 'create'],
    [
      'after the launch is recorded',
      (m: string, c: NodeClaimRecord) => m === 'update' && c.phase === 'Launched',
    ],
  ])(
    'converges with no leaked instance and no orphan claim when it dies %s',
    async (_, fails) => {
      const state = crashingAfter(makeMemoryStateStore(), fails);
      const report = await runSimulation(burstScenario(9, 60), { seed: 9, state });
      invariantsHeld(report);
      expect(report.summary.duplicateLaunches).toBe(0);
      expect(report.summary.leakedInstances).toBe(0);
    },
    120_000,
  );

  it('converges when it dies after CreateFleet, before recording the instance', async () => {
    const report = await runSimulation(burstScenario(9, 60), {
      seed: 9,
      cloudSeenByController: crashingAfterLaunch,
    });
    invariantsHeld(report);
    expect(report.decisions.some((d) => d.reason.includes('stopped pass'))).toBe(true);
  }, 120_000);
});

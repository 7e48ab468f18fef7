/**
 * The invariants a simulation run checks at its end (docs/design.md §5): every pod placed, no node
 * over its allocatable, no double launch, no leaked instance, no orphan claim, and capacity errors
 * resolved in the pass that met them.
 */

import type { Node } from '../../functions/domain/node.ts';
import type { Pod } from '../../functions/domain/pod.ts';
import { add, firstShortfall } from '../../functions/domain/resources.ts';
import { podRequests } from '../../functions/domain/scheduling/pod-requests.ts';
import type { NodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import type { SimulatedInstance } from '../cloud/simulated-instance.ts';
import type { BudgetSample, PodRemoval } from './disruption-ledger.ts';
import type { InvariantCheck } from './simulation-report.ts';

/** An instance the simulated cloud terminated, and what still ran on its node then. */
export interface Termination {
  readonly instance: SimulatedInstance;
  readonly node?: string;
  /** Pods bound to its node, not finished and not a DaemonSet's, when it was terminated. */
  readonly podsLeft: readonly string[];
}

export interface RunOutcome {
  readonly pods: readonly Pod[];
  readonly nodes: readonly Node[];
  readonly instances: readonly SimulatedInstance[];
  readonly terminations: readonly Termination[];
  readonly claims: readonly NodeClaimRecord[];
  readonly passes: readonly PassReport[];
  /** Why each pod the controller could not place was left, by `namespace/name`. */
  readonly unschedulable: ReadonlyMap<string, string>;
  readonly removals: readonly PodRemoval[];
  readonly budgets: readonly BudgetSample[];
  /**
   * The AWS and Kubernetes calls refused, when the functions run as deployed with their own
   * roles and groups; absent in process, where nothing is checked.
   */
  readonly refused?: readonly string[];
}

function check(name: string, problems: readonly string[], held: string): InvariantCheck {
  return problems.length === 0
    ? { name, held: true, detail: held }
    : {
        name,
        held: false,
        detail: `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` and ${problems.length - 5} more` : ''}`,
      };
}

function overCommitted({ pods, nodes }: RunOutcome): string[] {
  return nodes.flatMap((node) => {
    const bound = pods.filter((p) => p.nodeName === node.name);
    const shortfall = firstShortfall(add(...bound.map((p) => podRequests(p))), node.allocatable);
    return shortfall === undefined ? [] : [`${node.name}: ${shortfall}`];
  });
}

function replannedLater({ passes }: RunOutcome): string[] {
  return passes.flatMap((pass) =>
    pass.failures
      .filter((f) => f.capacity)
      .flatMap((f) => {
        const placed = new Set([
          ...pass.launches.filter((l) => l.round > 0).flatMap((l) => l.pods),
          ...pass.rounds.filter((r) => r.round > 0).flatMap((r) => r.onExistingCapacity),
        ]);
        const reported = new Set(pass.unschedulable.map((u) => u.pod));
        const left = f.pods.filter((p) => !placed.has(p) && !reported.has(p));
        return left.length === 0 ? [] : [`${f.claim}: ${left.length} pods waited for another pass`];
      }),
  );
}

/**
 * docs/design.md §8.1: an instance Nodesmith did not launch (Karpenter's, a node group's) is never
 * terminated unless it was adopted, and then only once its node was drained.
 */
function ownershipCheck({ instances, terminations }: RunOutcome): InvariantCheck {
  const foreign = instances.filter((i) => i.origin !== 'nodesmith');
  const problems = terminations
    .filter((t) => t.instance.origin !== 'nodesmith')
    .flatMap(({ instance, node, podsLeft }) => {
      if (!instance.owned)
        return [`${instance.instanceId} (${instance.origin}) terminated, never adopted`];
      return podsLeft.length === 0
        ? []
        : [
            `${instance.instanceId} (${instance.origin}) terminated with ${podsLeft.join(', ')} on ${node ?? 'its node'}`,
          ];
    });
  const adopted = foreign.filter((i) => i.owned).length;
  return check(
    'no instance Nodesmith did not launch terminated without a drain',
    problems,
    `${foreign.length} instances it did not launch (${adopted} adopted); ${
      terminations.filter((t) => t.instance.origin !== 'nodesmith').length
    } of them terminated, each after a drain`,
  );
}

function claimChecks({ instances: all, claims }: RunOutcome): InvariantCheck[] {
  // Claims are Nodesmith's: instances it launched, and those it adopted.
  const instances = all.filter((i) => i.origin === 'nodesmith' || i.owned);
  const live = instances.filter((i) => i.terminatedAt === undefined);
  const claimNames = new Set(claims.map((c) => c.name));
  const instanceClaims = new Set(live.map((i) => i.nodeClaim));
  const perClaim = new Map<string, number>();
  for (const i of instances) perClaim.set(i.nodeClaim, (perClaim.get(i.nodeClaim) ?? 0) + 1);
  return [
    check(
      'no double launch',
      [...perClaim]
        .filter(([, n]) => n > 1)
        .map(([claim, n]) => `${claim} launched ${n} instances`),
      `${instances.length} instances for ${perClaim.size} claims`,
    ),
    check(
      'no leaked instance',
      live.filter((i) => !claimNames.has(i.nodeClaim)).map((i) => `${i.instanceId} has no claim`),
      `${live.length} running instances, each with its claim`,
    ),
    check(
      'no orphan claim',
      claims
        .filter((c) => c.phase !== 'Pending' && !instanceClaims.has(c.name))
        .map((c) => `${c.name} has no instance`),
      `${claims.length} claims, each with its instance`,
    ),
  ];
}

function placementCheck({ pods, unschedulable: reasons }: RunOutcome): InvariantCheck {
  const pending = pods.filter((p) => p.nodeName === undefined);
  const unexplained = pending.filter((p) => !reasons.has(`${p.namespace}/${p.name}`));
  const running = pods.length - pending.length;
  const explained = pending.length - unexplained.length;
  const [example] = pending.flatMap((p) => reasons.get(`${p.namespace}/${p.name}`) ?? []);
  const held =
    explained === 0
      ? `${running} of ${pods.length} pods bound`
      : `${running} of ${pods.length} pods bound; ${explained} reported unschedulable (${example})`;
  return check(
    'every pod runs or is reported unschedulable',
    unexplained.map((p) => `${p.namespace}/${p.name} is pending with no reason given`),
    held,
  );
}

const VOLUNTARY = new Set(['Empty', 'Underutilized', 'Drifted']);

/**
 * docs/design.md §5.3: voluntary disruption never goes around a PDB, do-not-disrupt or a budget.
 * A budget is judged when voluntary disruption takes more of a pool, counting every node already
 * going, as Karpenter does; a pool an interruption shrinks afterwards leaves a command already
 * under way to finish (disruption-ledger.ts, budgetedStart).
 */
function disruptionChecks({ removals, budgets, pods }: RunOutcome): InvariantCheck[] {
  const voluntary = removals.filter((r) => r.done && VOLUNTARY.has(r.reason));
  const starts = budgets.flatMap((b) => (b.start === undefined ? [] : [{ ...b, ...b.start }]));
  const over = starts.filter((s) => s.disrupting > s.allowed);
  const pending = pods.filter((p) => p.nodeName === undefined);
  return [
    check(
      'no PodDisruptionBudget violated',
      voluntary
        .filter((r) => r.budgetSpent)
        .map((r) => `${r.pod} removed (${r.reason}) with its budget spent`),
      `${voluntary.length} pods moved by voluntary disruption, each within its budget`,
    ),
    check(
      'no do-not-disrupt pod evicted voluntarily',
      voluntary.filter((r) => r.protectedPod).map((r) => `${r.pod} removed (${r.reason})`),
      'pods annotated karpenter.sh/do-not-disrupt were left alone',
    ),
    check(
      'no disruption budget exceeded',
      over.map(
        (s) =>
          `${s.nodePool} at ${s.at}: took ${s.started} more, ${s.disrupting} of ${s.nodes} nodes going, ${s.allowed} allowed`,
      ),
      `every start of voluntary disruption within its pool's budgets (${starts.length})`,
    ),
    check(
      'no pod left without a place by voluntary disruption',
      voluntary.length === 0 ? [] : pending.map((p) => `${p.namespace}/${p.name} is pending`),
      voluntary.length === 0
        ? 'no voluntary disruption moved a pod'
        : `all ${voluntary.length} moved pods run again`,
    ),
  ];
}

export function checkInvariants(outcome: RunOutcome): InvariantCheck[] {
  const { nodes } = outcome;
  return [
    placementCheck(outcome),
    check(
      'no node over capacity',
      overCommitted(outcome),
      `${nodes.length} nodes within allocatable`,
    ),
    ...claimChecks(outcome),
    ownershipCheck(outcome),
    check(
      'capacity errors re-planned in the same pass',
      replannedLater(outcome),
      'no pod waited for a later pass after a capacity error',
    ),
    ...disruptionChecks(outcome),
    ...(outcome.refused === undefined
      ? []
      : [check('no call refused', outcome.refused, 'every AWS and Kubernetes call allowed')]),
  ];
}

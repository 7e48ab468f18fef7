/** Ported from core: node/termination/suite_test.go (drain order, exceptions, deadline). */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../functions/domain/node.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { drainPlan } from '../../../functions/domain/termination/drain.ts';
import { terminationSteps } from '../../../functions/domain/termination/termination.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aNode, aPod } from '../../support/builders.ts';

const NOW = Date.parse('2026-11-24T09:00:00Z');
const names = (pods: readonly Pod[]) => pods.map((p) => p.name);

describe('drain order', () => {
  const ordinary = aPod({ name: 'web', nodeName: 'n' });
  const daemon = aPod({ name: 'logs', nodeName: 'n', ownerKind: 'DaemonSet' });
  const critical = aPod({ name: 'dns', nodeName: 'n', priority: 2_000_000_000 });
  const criticalDaemon = aPod({
    name: 'cni',
    nodeName: 'n',
    ownerKind: 'DaemonSet',
    priority: 2_000_001_000,
  });

  it('evicts ordinary pods, then DaemonSet pods, then critical pods, then critical DaemonSet pods', () => {
    const all = [criticalDaemon, critical, daemon, ordinary];
    expect(names(drainPlan(all, NOW, undefined).evict)).toEqual(['web']);
    expect(names(drainPlan([criticalDaemon, critical, daemon], NOW, undefined).evict)).toEqual([
      'logs',
    ]);
    expect(names(drainPlan([criticalDaemon, critical], NOW, undefined).evict)).toEqual(['dns']);
    expect(names(drainPlan([criticalDaemon], NOW, undefined).evict)).toEqual(['cni']);
    expect(drainPlan([], NOW, undefined).drained).toBe(true);
  });

  it('waits for pods already being deleted before the next tier', () => {
    const plan = drainPlan([{ ...ordinary, deleting: true }, daemon], NOW, undefined);
    expect(plan.evict).toEqual([]);
    expect(names(plan.waiting)).toEqual(['web']);
    expect(plan.drained).toBe(false);
  });

  it('leaves mirror pods, finished pods and pods tolerating karpenter.sh/disrupted with the node', () => {
    const mirror = aPod({ name: 'static', nodeName: 'n', ownerKind: 'Node' });
    const done = { ...aPod({ name: 'job', nodeName: 'n' }), phase: 'Succeeded' };
    const tolerant = aPod({
      name: 'agent',
      nodeName: 'n',
      tolerations: [{ key: 'karpenter.sh/disrupted', operator: 'Exists' }],
    });
    expect(drainPlan([mirror, done, tolerant], NOW, undefined)).toMatchObject({
      evict: [],
      drained: true,
    });
  });

  it('does not evict do-not-disrupt pods, and deletes pods when the deadline leaves no time', () => {
    const guarded = { ...ordinary, annotations: { 'karpenter.sh/do-not-disrupt': 'true' } };
    const before = drainPlan([guarded], NOW, NOW + 60_000);
    expect(before).toMatchObject({ evict: [], delete: [], drained: false });
    const graceLeft = drainPlan([guarded], NOW, NOW + 20_000);
    expect(names(graceLeft.delete)).toEqual(['web']);
    const long = { ...guarded, spec: { ...guarded.spec, terminationGracePeriodSeconds: 300 } };
    expect(names(drainPlan([long], NOW, NOW + 120_000).delete)).toEqual(['web']);
    expect(drainPlan([guarded], NOW, NOW).drained).toBe(true);
  });
});

describe('termination steps', () => {
  const node: Node = { ...aNode({ name: 'n' }), providerID: 'aws:///us-east-1a/i-1' };
  const claim = (phase: NodeClaimRecord['phase']): NodeClaimRecord => ({
    ...aNewNodeClaim({ name: 'c' }),
    phase,
    version: 1,
    instanceId: 'i-1',
    providerID: 'aws:///us-east-1a/i-1',
    nodeName: 'n',
  });
  const steps = (c: NodeClaimRecord, pods: Pod[] = [], live = ['i-1'], nodes = [node]) =>
    terminationSteps({ claims: [c], nodes, pods, liveInstances: new Set(live), nowMs: NOW }).map(
      (s) => s.kind,
    );

  it('moves a claim through taint, drain, terminate and finish', () => {
    const pod = aPod({ nodeName: 'n' });
    expect(steps(claim('Disrupting'), [pod])).toEqual(['StartDrain']);
    expect(steps(claim('Draining'), [pod])).toEqual(['Drain']);
    expect(steps(claim('Draining'))).toEqual(['TerminateInstance']);
    expect(steps(claim('Terminating'))).toEqual(['TerminateInstance']);
    expect(steps(claim('Terminating'), [], [])).toEqual(['Finish']);
  });

  it('finishes at once when the instance is already gone', () => {
    expect(steps(claim('Draining'), [aPod({ nodeName: 'n' })], [])).toEqual(['Finish']);
  });

  it('terminates a claim whose node never joined', () => {
    expect(steps(claim('Disrupting'), [], ['i-1'], [])).toEqual(['TerminateInstance']);
  });

  it('leaves claims that are not being deleted alone', () => {
    expect(steps(claim('Initialized'))).toEqual([]);
  });
});

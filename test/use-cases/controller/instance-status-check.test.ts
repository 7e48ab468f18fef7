/**
 * EC2's status checks read by a pass (aws: pkg/controllers/interruption/instancestatus_controller.go
 * and the status-check cases of interruption/suite_test.go): a failed system or instance check
 * terminates the claim forcefully, a scheduled event drains it, and an instance that is no
 * claim's, or a check EC2 cannot answer, changes nothing. The pass reports what each check did,
 * and Karpenter's metrics count an instance's failing category once, however many passes see it.
 */
import { describe, expect, it } from 'vitest';
import type { StatusDetail } from '../../../functions/domain/interruption/instance-status.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { passMetrics } from '../../../functions/use-cases/controller/pass-metrics.ts';
import type { PassReport } from '../../../functions/use-cases/controller/pass-report.ts';
import { aLabelledClaim, aPassWorld, eventsAbout, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();

const settings = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

const FIVE_MINUTES_AGO = new Date(T0 - 300_000).toISOString();

const UNHEALTHY = 'karpenter_interruption_instance_status_unhealthy_total';
const DISRUPTED = 'karpenter_nodeclaims_disrupted_total';
const STATUS_METRICS = [UNHEALTHY, DISRUPTED];

function taintsOf(node: string): string[] {
  const spec = server().store.get('nodes', node)?.spec as { taints?: { key: string }[] };
  return (spec?.taints ?? []).map((t) => t.key);
}

describe('status checks in a pass', () => {
  it.each([
    {
      name: 'a failed system check terminates the claim forcefully',
      detail: {
        category: 'SystemStatus',
        name: 'reachability',
        status: 'failed',
        impairedSince: FIVE_MINUTES_AGO,
      } satisfies StatusDetail,
      message: 'system status check failed (reachability)',
      terminateBy: new Date(T0).toISOString(),
    },
    {
      name: 'a failed instance check terminates the claim forcefully',
      detail: {
        category: 'InstanceStatus',
        name: 'reachability',
        status: 'failed',
        impairedSince: FIVE_MINUTES_AGO,
      } satisfies StatusDetail,
      message: 'instance status check failed (reachability)',
      terminateBy: new Date(T0).toISOString(),
    },
    {
      name: 'a scheduled event drains the claim',
      detail: {
        category: 'EventStatus',
        name: 'system-maintenance',
        status: 'failed',
      } satisfies StatusDetail,
      message: 'scheduled event (system-maintenance)',
      terminateBy: undefined,
    },
  ])('$name', async ({ detail, message, terminateBy }) => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    const claim = await aLabelledClaim(world, server(), 'general-sick1');
    const node = claim.nodeName ?? '';
    world.cloud.impair({ instanceId: claim.instanceId ?? '', details: [detail] });

    // Act
    await runControllerPass(world.deps, settings);

    // Assess
    const marked = await world.state.nodeClaims.get(claim.name);
    expect(marked?.disruption).toEqual({
      reason: 'InstanceUnhealthy',
      message,
      decidedAt: new Date(T0).toISOString(),
      ...(terminateBy === undefined ? {} : { terminateBy }),
    });
    expect(taintsOf(node)).toContain('karpenter.sh/disrupted');
    expect(eventsAbout(server(), node, 'InstanceUnhealthy')).toEqual([
      expect.objectContaining({ type: 'Warning', message }),
    ]);
  });

  it('leaves a claim alone while its check has failed for less than two minutes', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    const claim = await aLabelledClaim(world, server(), 'general-sick1');
    const impairedSince = new Date(T0 - 60_000).toISOString();
    world.cloud.impair({
      instanceId: claim.instanceId ?? '',
      details: [
        { category: 'SystemStatus', name: 'reachability', status: 'failed', impairedSince },
      ],
    });

    // Act
    await runControllerPass(world.deps, settings);

    // Assess
    expect((await world.state.nodeClaims.get(claim.name))?.disruption).toBeUndefined();
  });

  it('goes on with the pass when EC2 cannot answer', async () => {
    // Prepare: pods waiting for a node, and DescribeInstanceStatus throttled
    const world = await aPassWorld(server(), 3);
    world.cloud.instanceStatuses = () =>
      Promise.reject(new ThrottledError('describing instance status checks: throttled'));

    // Act
    const report = await runControllerPass(world.deps, settings);

    // Assess: the pass launched for them all the same
    expect(report.ran).toBe(true);
    expect(report.launches).not.toEqual([]);
  });

  it('reports the check once, and Karpenter’s metrics count it once across passes', async () => {
    // Prepare: a failed instance check, seen by two passes in a row
    const world = await aPassWorld(server(), 0);
    const claim = await aLabelledClaim(world, server(), 'general-sick1');
    const detail: StatusDetail = {
      category: 'InstanceStatus',
      name: 'reachability',
      status: 'failed',
      impairedSince: FIVE_MINUTES_AGO,
    };
    world.cloud.impair({ instanceId: claim.instanceId ?? '', details: [detail] });

    // Act
    const first = await runControllerPass(world.deps, settings);
    const second = await runControllerPass(world.deps, settings);

    // Assess
    expect(first.statusChecks).toEqual([
      expect.objectContaining({
        kind: 'InstanceStatusFailed',
        duplicate: false,
        instances: [expect.objectContaining({ claim: claim.name, action: 'CordonAndDrain' })],
      }),
    ]);
    const counted = (report: PassReport) =>
      passMetrics(report)
        .filter((s) => STATUS_METRICS.includes(s.name))
        .map((s) => [s.name, s.labels, s.value]);
    expect(counted(first)).toEqual([
      [UNHEALTHY, { category: 'InstanceStatus' }, 1],
      [
        DISRUPTED,
        { reason: 'instance_status', nodepool: claim.nodePool, capacity_type: 'spot' },
        1,
      ],
    ]);
    expect(counted(second)).toEqual([]);
  });
});

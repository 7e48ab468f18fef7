/**
 * The controller's time box (docs/design.md §3.9): once the caller's clock says the
 * pass is out of time, scheduling stops, what was decided stands, and every pod left says why.
 * Without a time box a plan runs to the end, as `plan` needs.
 */
import { describe, expect, it } from 'vitest';
import { aPod } from '../../support/builders.ts';
import { planFor } from '../../support/scheduling-builders.ts';

const pods = Array.from({ length: 300 }, (_, i) =>
  aPod({ name: `web-${i}`, cpu: '250m', memory: '256Mi' }),
);

describe('the scheduling deadline', () => {
  it('stops placing pods once out of time and reports the rest with code Deadline', () => {
    let looks = 0;
    const plan = planFor({ pods, outOfTime: () => ++looks > 1 });
    const placed = plan.nodeClaims.flatMap((c) => c.pods).length;
    const cut = plan.unschedulable.filter((u) => u.reasons.some((r) => r.code === 'Deadline'));
    expect(placed).toBeGreaterThan(0);
    expect(placed + cut.length).toBe(300);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut[0]?.reason).toContain('the pass reached its deadline before this pod');
  });

  it('places every pod when there is time, as it does with no time box', () => {
    const boxed = planFor({ pods, outOfTime: () => false });
    expect(boxed).toEqual(planFor({ pods }));
    expect(boxed.unschedulable).toEqual([]);
  });
});

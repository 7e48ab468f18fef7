import { describe, expect, it } from 'vitest';
import { costVerdicts } from '../../bench/cost-budgets.ts';

describe('the cost budgets judged on the plain 5,000-pod mix', () => {
  it('compares the c/m/r pool with the lower bound and the any-type pool with one node group', () => {
    // Prepare
    const rows = [
      { mix: 'plain, c/m/r', pods: 1000, ratio: 1.2, nodeGroupRatio: 0.9 },
      { mix: 'plain, c/m/r', pods: 5000, ratio: 1.04, nodeGroupRatio: 0.9 },
      { mix: 'plain, any type', pods: 5000, ratio: 1.4, nodeGroupRatio: 0.61 },
    ];

    // Act
    const verdicts = costVerdicts(rows);

    // Assess
    expect(verdicts).toEqual([
      'plain, c/m/r, 5000 pods ÷ lower bound: 1.040 (budget ≤ 1.05): met',
      'plain, any type, 5000 pods ÷ one node group: 0.610 (budget ≤ 0.6): missed',
    ]);
  });

  it('says so when a mix was not measured', () => {
    // Act
    const verdicts = costVerdicts([]);

    // Assess
    expect(verdicts).toEqual([
      'plain, c/m/r, 5000 pods ÷ lower bound: not measured',
      'plain, any type, 5000 pods ÷ one node group: not measured',
    ]);
  });
});

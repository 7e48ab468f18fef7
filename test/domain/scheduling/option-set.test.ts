import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstanceTypeOption } from '../../../functions/domain/scheduling/instance-type-option.ts';
import { OptionSet, optionIndex } from '../../../functions/domain/scheduling/option-set.ts';
import type { CoreRequests } from '../../../functions/domain/scheduling/scheduling-pod.ts';
import { anInstanceType } from '../../support/builders.ts';

function option(name: string, cpu: number, memory: number, pods: number): InstanceTypeOption {
  return {
    instanceType: anInstanceType({ name, cpu: 1, memoryGiB: 1, price: 1 }),
    net: { cpu, memory, pods },
  };
}

function total(cpu: number, memory: number, pods: number): CoreRequests {
  return { cpu, memory, pods, extended: false };
}

const OPTIONS = [
  option('small', 2000, 4, 10),
  option('wide', 8000, 4, 10),
  option('tall', 2000, 32, 10),
  option('big', 8000, 32, 110),
];

function names(options: readonly InstanceTypeOption[]): string[] {
  return options.map((o) => o.instanceType.name);
}

describe('the instance-type options of one node claim', () => {
  it('starts with every option, or with those a limit allows', () => {
    // Act
    const all = new OptionSet(optionIndex(OPTIONS));
    const limited = new OptionSet(optionIndex(OPTIONS), (o) => (o.net.cpu ?? 0) < 8000);

    // Assess
    expect(names(all.toArray())).toEqual(['small', 'wide', 'tall', 'big']);
    expect(names(limited.toArray())).toEqual(['small', 'tall']);
    expect(limited.size).toBe(2);
    expect([0, 1, 2, 3].map((i) => limited.isOpen(i))).toEqual([true, false, true, false]);
  });

  it('proposes without changing anything until the proposal is accepted', () => {
    // Prepare
    const set = new OptionSet(optionIndex(OPTIONS));

    // Act
    const proposal = set.propose(total(4000, 1, 1));

    // Assess
    expect(proposal.remaining).toBe(2);
    expect(names(set.toArray(proposal))).toEqual(['wide', 'big']);
    expect(set.size).toBe(4);
    set.accept(proposal);
    expect(names(set.toArray())).toEqual(['wide', 'big']);
  });

  it('removes options an extra test rejects', () => {
    // Prepare
    const set = new OptionSet(optionIndex(OPTIONS));

    // Act
    const proposal = set.propose(total(0, 0, 0), (i) => i !== 3);
    set.accept(proposal);

    // Assess
    expect(names(set.toArray())).toEqual(['small', 'wide', 'tall']);
  });

  it('answers the ceiling question per dimension from the largest open option', () => {
    // Prepare
    const set = new OptionSet(optionIndex(OPTIONS));
    set.accept(set.propose(total(0, 0, 0), (i) => i !== 3));

    // Act
    const answers = [
      set.fitsCeiling(8000, 4, 10),
      set.fitsCeiling(2000, 32, 10),
      set.fitsCeiling(8000, 32, 10),
      set.fitsCeiling(8001, 0, 0),
      set.fitsCeiling(0, 0, 11),
    ];

    // Assess
    expect(answers).toEqual([true, true, true, false, false]);
  });

  it('fits nothing once every option is gone', () => {
    // Prepare
    const set = new OptionSet(optionIndex(OPTIONS));

    // Act
    set.accept(set.propose(total(100_000, 0, 0)));

    // Assess
    expect(set.size).toBe(0);
    expect(set.fitsCeiling(0, 0, 0)).toBe(false);
    expect(set.toArray()).toEqual([]);
  });
});

interface Step {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly reject: readonly number[];
  readonly accept: boolean;
}

const anOption = fc.record({
  cpu: fc.integer({ min: 0, max: 8 }),
  memory: fc.integer({ min: 0, max: 8 }),
  pods: fc.integer({ min: 0, max: 8 }),
});
const aStep = fc.record({
  cpu: fc.integer({ min: 0, max: 9 }),
  memory: fc.integer({ min: 0, max: 9 }),
  pods: fc.integer({ min: 0, max: 9 }),
  reject: fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 2 }),
  accept: fc.boolean(),
});

/** Brute force: an option is open when it passed the limit and every accepted step. */
function bruteForce(
  options: readonly InstanceTypeOption[],
  allowed: ReadonlySet<number>,
  accepted: readonly Step[],
): number[] {
  return options.flatMap((o, i) => {
    if (!allowed.has(i)) return [];
    const survives = accepted.every(
      (s) =>
        (o.net.cpu ?? 0) >= s.cpu &&
        (o.net.memory ?? 0) >= s.memory &&
        (o.net.pods ?? 0) >= s.pods &&
        !s.reject.includes(i),
    );
    return survives ? [i] : [];
  });
}

describe('narrowing options as pods arrive', () => {
  it('agrees with filtering every option from scratch', () => {
    fc.assert(
      fc.property(
        fc.array(anOption, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.array(aStep, { maxLength: 8 }),
        (specs, allowedFlags, steps) => {
          // Prepare
          const options = specs.map((s, i) => option(`t${i}`, s.cpu, s.memory, s.pods));
          const allowed = new Set(options.flatMap((_, i) => (allowedFlags[i] ? [i] : [])));
          const set = new OptionSet(optionIndex(options), (o) => allowed.has(options.indexOf(o)));
          const accepted: Step[] = [];
          let running = { cpu: 0, memory: 0, pods: 0 };

          for (const step of steps) {
            // Totals only grow, as pods only add requests.
            const next = {
              cpu: Math.max(running.cpu, step.cpu),
              memory: Math.max(running.memory, step.memory),
              pods: Math.max(running.pods, step.pods),
            };
            const candidate: Step = { ...step, ...next };

            // Act
            const proposal = set.propose(
              total(next.cpu, next.memory, next.pods),
              (i) => !step.reject.includes(i),
            );
            const expected = bruteForce(options, allowed, [...accepted, candidate]);

            // Assess
            expect(proposal.remaining).toBe(expected.length);
            expect(names(set.toArray(proposal))).toEqual(expected.map((i) => `t${i}`));
            if (step.accept) {
              set.accept(proposal);
              accepted.push(candidate);
              running = next;
            }
            const open = bruteForce(options, allowed, accepted);
            expect(set.size).toBe(open.length);
            expect(names(set.toArray())).toEqual(open.map((i) => `t${i}`));
            expect(options.map((_, i) => set.isOpen(i))).toEqual(
              options.map((_, i) => open.includes(i)),
            );
            const ceiling = ['cpu', 'memory', 'pods'].map((d) =>
              Math.max(0, ...open.map((i) => options[i]?.net[d] ?? 0)),
            );
            const [c = 0, m = 0, p = 0] = ceiling;
            expect(set.fitsCeiling(c, m, p)).toBe(open.length > 0);
            expect(set.fitsCeiling(c + 1, 0, 0)).toBe(false);
            expect(set.fitsCeiling(0, m + 1, 0)).toBe(false);
            expect(set.fitsCeiling(0, 0, p + 1)).toBe(false);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

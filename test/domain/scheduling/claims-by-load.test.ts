import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ClaimRoom,
  ClaimsByLoad,
  type ClaimView,
  type LoadedClaim,
  type RoomNeed,
} from '../../../functions/domain/scheduling/claims-by-load.ts';

/** A claim as the order sees it: pods held, room left and zone, all changed by `take`. */
class FakeClaim implements LoadedClaim {
  load = 1;
  zone: string | undefined;

  constructor(
    readonly hostname: string,
    public room: ClaimRoom,
  ) {}

  take(room: ClaimRoom, zone?: string): void {
    this.load++;
    this.room = room;
    if (zone !== undefined) this.zone = zone;
  }
}

function room(cpu: number, memory: number, pods = 10): ClaimRoom {
  return {
    cpu,
    memory,
    pods,
    efficientCpu: cpu,
    efficientMemory: memory,
    efficientPods: pods,
  };
}

function need(cpu: number, memory: number, coLocated = false): RoomNeed {
  return { cpu, memory, pods: 1, coLocated };
}

/** What NewNodeClaim.hasRoomFor answers on the measures the order keeps, written out once more. */
function hasRoom(claim: LoadedClaim, pod: RoomNeed): boolean {
  const r = claim.room;
  if (pod.pods > r.pods) return false;
  if (pod.coLocated) return pod.cpu <= r.cpu && pod.memory <= r.memory;
  return (
    pod.cpu <= r.efficientCpu && pod.memory <= r.efficientMemory && pod.pods <= r.efficientPods
  );
}

describe('the order new claims are offered a pod in', () => {
  it('offers claims fewest pods first, and claims with as many pods in the order they reached it', () => {
    // Prepare
    const claims = new ClaimsByLoad<FakeClaim>();
    const [a, b, c] = ['a', 'b', 'c'].map((h) => new FakeClaim(h, room(1000, 1000)));
    for (const claim of [a, b, c]) if (claim !== undefined) claims.add(claim);
    a?.take(room(1000, 1000));
    if (a !== undefined) claims.moved(a);
    c?.take(room(1000, 1000));
    if (c !== undefined) claims.moved(c);
    const asked: string[] = [];

    // Act
    const found = claims.find(need(1, 1), (claim) => {
      asked.push(claim.hostname);
      return false;
    });

    // Assess
    expect(found).toBeUndefined();
    expect(asked).toEqual(['b', 'a', 'c']);
    expect(claims.all.map((claim) => claim.hostname)).toEqual(['a', 'b', 'c']);
  });

  it('does not ask claims without room for the pod, and gives co-located pods all the room', () => {
    // Prepare
    const claims = new ClaimsByLoad<FakeClaim>();
    const full = new FakeClaim('full', { ...room(100, 100), cpu: 4000, memory: 4000 });
    const roomy = new FakeClaim('roomy', room(2000, 2000));
    claims.add(full);
    claims.add(roomy);
    const asked: string[] = [];
    const ask = (claim: FakeClaim) => {
      asked.push(claim.hostname);
      return true;
    };

    // Act
    const elsewhere = claims.find(need(500, 500), ask);
    const coLocated = claims.find(need(500, 500, true), ask);

    // Assess
    expect(elsewhere?.hostname).toBe('roomy');
    expect(coLocated?.hostname).toBe('full');
    expect(asked).toEqual(['roomy', 'full']);
  });
});

interface Step {
  readonly claim: number;
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
}

const aRoom = fc.integer({ min: 0, max: 6 });
const aStep = fc.record({
  claim: fc.nat(),
  cpu: aRoom,
  memory: aRoom,
  pods: fc.integer({ min: 0, max: 2 }),
});
const aNeed = fc.record({
  cpu: aRoom,
  memory: aRoom,
  pods: fc.integer({ min: 0, max: 2 }),
  coLocated: fc.boolean(),
});

describe('skipping claims without room', () => {
  it('finds what asking every claim in order would find', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        // Long enough to fill several blocks and empty most of them, which compacts a count.
        fc.array(aStep, { minLength: 50, maxLength: 400, size: 'max' }),
        fc.array(aNeed, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (count, steps, needs, refusing) => {
          // Prepare
          const claims = new ClaimsByLoad<FakeClaim>();
          const all = Array.from({ length: count }, (_, i) => new FakeClaim(`h${i}`, room(6, 6)));
          for (const claim of all) claims.add(claim);
          // The order, kept naively: arrival at each count, moved claims at the back.
          let order = [...all];
          for (const step of steps) {
            const claim = all[step.claim % count];
            if (claim === undefined) continue;
            claim.take({ ...room(step.cpu, step.memory, step.pods), efficientCpu: step.cpu - 1 });
            claims.moved(claim);
            order = [...order.filter((c) => c !== claim), claim];
          }
          const refused = new Set(refusing.map((i) => `h${i % count}`));
          const sorted = [...order].sort((a, b) => a.load - b.load);

          for (const pod of needs) {
            // Act
            const found = claims.find(pod, (claim) => !refused.has(claim.hostname));

            // Assess
            const expected = sorted.find((c) => hasRoom(c, pod) && !refused.has(c.hostname));
            expect(found?.hostname).toBe(expected?.hostname);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds within a view what asking every claim in order, those it holds only, would find', () => {
    // Prepare: a claim's zone is set, and set again, only by a pod it takes; the view holds
    // the claims that can be in zone a, as a restriction to one zone would.
    const inZoneA: ClaimView<FakeClaim> = {
      id: 'zone=a',
      holds: (claim) => claim.zone === undefined || claim.zone === 'a',
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        fc.array(fc.record({ step: aStep, zone: fc.constantFrom(undefined, 'a', 'b') }), {
          minLength: 50,
          maxLength: 400,
          size: 'max',
        }),
        fc.nat(),
        fc.array(aNeed, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (count, steps, viewFrom, needs, refusing) => {
          const claims = new ClaimsByLoad<FakeClaim>();
          const all = Array.from({ length: count }, (_, i) => new FakeClaim(`h${i}`, room(6, 6)));
          let order: FakeClaim[] = [];
          const refused = new Set(refusing.map((i) => `h${i % count}`));
          const expected = (pod: RoomNeed) =>
            [...order]
              .sort((a, b) => a.load - b.load)
              .find((c) => inZoneA.holds(c) && hasRoom(c, pod) && !refused.has(c.hostname));
          steps.forEach(({ step, zone }, i) => {
            // The view is first asked for part-way, and kept from then on.
            if (i === viewFrom % steps.length) claims.findIn(inZoneA, need(0, 0), () => false);
            const claim = all[step.claim % count];
            if (claim === undefined) return;
            if (!order.includes(claim)) {
              claims.add(claim);
              order.push(claim);
              return;
            }
            claim.take(
              { ...room(step.cpu, step.memory, step.pods), efficientCpu: step.cpu - 1 },
              zone,
            );
            claims.moved(claim);
            order = [...order.filter((c) => c !== claim), claim];
          });

          for (const pod of needs) {
            // Act
            const found = claims.findIn(inZoneA, pod, (claim) => !refused.has(claim.hostname));

            // Assess
            expect(found?.hostname).toBe(expected(pod)?.hostname);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds among the claims on a few hosts what asking every claim in order, those only, would find', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        fc.array(aStep, { minLength: 50, maxLength: 400, size: 'max' }),
        fc.array(aNeed, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (count, steps, needs, refusing, confining) => {
          // Prepare
          const claims = new ClaimsByLoad<FakeClaim>();
          const all = Array.from({ length: count }, (_, i) => new FakeClaim(`h${i}`, room(6, 6)));
          for (const claim of all) claims.add(claim);
          let order = [...all];
          for (const step of steps) {
            const claim = all[step.claim % count];
            if (claim === undefined) continue;
            claim.take({ ...room(step.cpu, step.memory, step.pods), efficientCpu: step.cpu - 1 });
            claims.moved(claim);
            order = [...order.filter((c) => c !== claim), claim];
          }
          const refused = new Set(refusing.map((i) => `h${i % count}`));
          // Hosts no claim of the pass has (a node that already runs) are named too.
          const hosts = new Set([...confining.map((i) => `h${i % count}`), 'existing-node']);
          const sorted = [...order].sort((a, b) => a.load - b.load);

          for (const pod of needs) {
            // Act
            const onHosts = { id: 'hosts', holds: (claim: FakeClaim) => hosts.has(claim.hostname) };
            const found = claims.findIn(onHosts, pod, (claim) => !refused.has(claim.hostname));

            // Assess
            const expected = sorted.find(
              (c) => hosts.has(c.hostname) && hasRoom(c, pod) && !refused.has(c.hostname),
            );
            expect(found?.hostname).toBe(expected?.hostname);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

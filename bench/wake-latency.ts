/**
 * Pod marked Unschedulable → wake queued, on each wake path of the simulated world (issue 23):
 * a pending pod is created and its creation's wake let pass, then the stand-in kube-scheduler
 * marks it and the world runs second by second until the work queue holds a wake from the path.
 * Reports the simulated delay and the wall-clock time of the second that queued it (the
 * admission call, the relay's handler and the queue's send), the median of a few runs.
 *
 * Run: npx tsx bench/wake-latency.ts
 */
import type { WakeSource } from '../functions/ports/wake.ts';
import { SIMULATION_START, type WakePath, World } from '../simulator/run/world.ts';
import { median } from './median.ts';

// The relay's logs would bury the figures.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';

const RUNS = 7;
const SOURCE: Readonly<Record<Exclude<WakePath, 'tick'>, WakeSource>> = {
  admission: 'admission',
  audit: 'audit',
};

function pendingPod(n: number) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `web-${n}`, namespace: 'default' },
    spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '1' } } }] },
  };
}

async function once(path: Exclude<WakePath, 'tick'>, n: number) {
  const world = await World.start({
    region: 'us-east-1',
    zones: ['us-east-1a'],
    seed: 1,
    namespaces: ['default'],
    wake: path,
  });
  try {
    world.create('pods', [pendingPod(n)]);
    await world.relayWrites();
    // Past the relay's wake window and the audit log's delivery of the creation.
    let t = 120;
    world.clock.advanceTo(SIMULATION_START + t * 1000);
    await world.relayWrites();
    const before = world.queue.sent(SOURCE[path]);
    // From the mark itself: the webhook call starts inside the scheduler's write.
    let started = performance.now();
    world.scheduler.cycle();
    const markedAt = t;
    for (;;) {
      await world.relayWrites();
      const wallMs = performance.now() - started;
      if (world.queue.sent(SOURCE[path]) > before)
        return { simulatedMs: (t - markedAt) * 1000, wallMs };
      t += 1;
      started = performance.now();
      world.clock.advanceTo(SIMULATION_START + t * 1000);
    }
  } finally {
    await world.close();
  }
}

for (const path of ['admission', 'audit'] as const) {
  const runs = [];
  for (let n = 0; n < RUNS; n++) runs.push(await once(path, n));
  const simulated = median(runs.map((r) => r.simulatedMs));
  const wall = median(runs.map((r) => r.wallMs));
  console.log(`${path}: simulated ${simulated} ms, wall ${wall.toFixed(1)} ms (median of ${RUNS})`);
}

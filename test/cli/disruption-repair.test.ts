/**
 * `nodesmith disruption` with node auto repair (docs/disruption.md, "Repair"; core:
 * node/health/controller.go): the conditions come from the dump's Nodes, as `kubectl get nodes
 * -o json` writes them, and a node unhealthy past its toleration shows as `repair`, reason
 * Unhealthy, ahead of every graceful method and whatever blocks them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DisruptionReport } from '../../functions/use-cases/disruption/disruption-report.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/underused.yaml', import.meta.url));
const NOW = '2026-10-06T10:00:00Z';
/** The node a PodDisruptionBudget keeps from graceful disruption. */
const GUARDED = 'ip-10-0-1-14.ec2.internal';

interface Item {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  status?: { conditions?: Record<string, string>[] };
}

/** The example as a JSON List with `sick` nodes' Ready turned Unknown an hour before NOW. */
function dumpWithUnhealthy(sick: (node: Item, index: number) => boolean): string {
  const list = parse(readFileSync(EXAMPLE, 'utf8')) as { items: Item[] };
  let index = 0;
  for (const item of list.items) {
    if (item.kind !== 'Node' || !sick(item, index++)) continue;
    item.status = {
      ...item.status,
      conditions: [
        {
          type: 'Ready',
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastTransitionTime: '2026-10-06T09:00:00Z',
        },
      ],
    };
  }
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-repair-')), 'cluster.json');
  writeFileSync(file, JSON.stringify(list));
  return file;
}

async function run(file: string, output: 'json' | 'table') {
  const result = await runCliInProcess(['disruption', '-f', file, '--now', NOW, '-o', output]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('nodesmith disruption with unhealthy nodes', () => {
  it('repairs a node unhealthy past its toleration, though a PodDisruptionBudget guards its pods', async () => {
    // Prepare
    const file = dumpWithUnhealthy((node) => node.metadata.name === GUARDED);

    // Act
    const report = JSON.parse(await run(file, 'json')) as DisruptionReport;
    const table = await run(file, 'table');

    // Assess
    expect(report.decisions[0]).toMatchObject({
      method: 'repair',
      reason: 'Unhealthy',
      nodes: [GUARDED],
      replacement: null,
      savingsPerHour: 0,
      message:
        'unhealthy: node condition Ready has been Unknown for 1h, past the 30m it is tolerated; replaced without draining',
    });
    expect(report.staying.map((s) => s.node)).not.toContain(GUARDED);
    expect(table).toMatch(
      /^repair +ip-10-0-1-14\.ec2\.internal .*unhealthy: node condition Ready/m,
    );
  });

  it.each([
    { sick: ['ip-10-0-1-11.ec2.internal', 'ip-10-0-1-13.ec2.internal'], blocked: false },
    {
      sick: ['ip-10-0-1-11.ec2.internal', 'ip-10-0-1-13.ec2.internal', GUARDED],
      blocked: true,
    },
  ])(
    'with $sick.length of the default pool’s 8 nodes unhealthy, 2 allowed, blocks repair: $blocked',
    async ({ sick, blocked }) => {
      // Prepare
      const file = dumpWithUnhealthy((node) => sick.includes(node.metadata.name));

      // Act
      const report = JSON.parse(await run(file, 'json')) as DisruptionReport;

      // Assess
      const repaired = report.decisions
        .filter((d) => d.method === 'repair')
        .flatMap((d) => d.nodes);
      const kept = report.staying.filter((s) => s.code === 'RepairBlocked');
      expect(repaired).toEqual(blocked ? [] : sick);
      expect(kept).toEqual(
        blocked
          ? sick.map((node) => ({
              node,
              code: 'RepairBlocked',
              reason:
                "more than 20% nodes are unhealthy in the nodepool: 3 of NodePool default's 8 nodes are, 2 may be",
            }))
          : [],
      );
    },
  );
});

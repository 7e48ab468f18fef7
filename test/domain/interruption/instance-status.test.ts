/**
 * EC2 status checks read as interruptions, ported from aws: pkg/providers/instancestatus/suite_test.go
 * and the status-check cases of pkg/controllers/interruption/suite_test.go.
 */
import { describe, expect, it } from 'vitest';
import {
  type InstanceStatus,
  instanceStatusMessages,
} from '../../../functions/domain/interruption/instance-status.ts';
import { interruptionAction } from '../../../functions/domain/interruption/interruption-action.ts';

const NOW_MS = Date.parse('2026-11-24T10:00:00Z');
const AN_HOUR_AGO = '2026-11-24T09:00:00Z';

/** Karpenter's fixture: instance and system reachability failed, EBS too, and a retirement. */
const IMPAIRED: InstanceStatus = {
  instanceId: 'i-0123456789',
  details: [
    {
      category: 'InstanceStatus',
      name: 'reachability',
      status: 'failed',
      impairedSince: AN_HOUR_AGO,
    },
    {
      category: 'SystemStatus',
      name: 'reachability',
      status: 'failed',
      impairedSince: AN_HOUR_AGO,
    },
    { category: 'EBSStatus', name: 'reachability', status: 'failed', impairedSince: AN_HOUR_AGO },
    { category: 'EventStatus', name: 'instance-retirement', status: 'failed' },
  ],
};

describe('instanceStatusMessages', () => {
  it('reads every failing category but EBS, forceful ones first, each with its own id', () => {
    // Act
    const messages = instanceStatusMessages([IMPAIRED], NOW_MS);

    // Assess
    expect(messages).toEqual([
      {
        id: 'instance-status/i-0123456789/InstanceStatus',
        kind: 'InstanceStatusFailed',
        instanceIds: ['i-0123456789'],
        time: '2026-11-24T10:00:00.000Z',
        checks: ['reachability'],
      },
      expect.objectContaining({ kind: 'SystemStatusFailed', checks: ['reachability'] }),
      expect.objectContaining({ kind: 'ScheduledEvent', checks: ['instance-retirement'] }),
    ]);
  });

  it('reads nothing from checks initializing or without data', () => {
    // Prepare
    const healthy: InstanceStatus = {
      instanceId: 'i-0123456789',
      details: [
        { category: 'SystemStatus', name: 'reachability', status: 'initializing' },
        { category: 'InstanceStatus', name: 'reachability', status: 'insufficient-data' },
      ],
    };

    // Act
    const messages = instanceStatusMessages([healthy], NOW_MS);

    // Assess
    expect(messages).toEqual([]);
  });

  it('reads a scheduled event at once, and a failed check only after two minutes', () => {
    // Prepare
    const justFailed = new Date(NOW_MS - 119_000).toISOString();
    const status: InstanceStatus = {
      instanceId: 'i-0123456789',
      details: [
        {
          category: 'SystemStatus',
          name: 'reachability',
          status: 'failed',
          impairedSince: justFailed,
        },
        { category: 'EventStatus', name: 'system-maintenance', status: 'failed' },
      ],
    };

    // Act
    const early = instanceStatusMessages([status], NOW_MS);
    const later = instanceStatusMessages([status], NOW_MS + 1_000);

    // Assess
    expect(early.map((m) => m.kind)).toEqual(['ScheduledEvent']);
    expect(later.map((m) => m.kind)).toEqual(['SystemStatusFailed', 'ScheduledEvent']);
  });
});

describe('what a failing status check does', () => {
  it.each([
    {
      kind: 'InstanceStatusFailed',
      forceful: true,
      message: 'instance status check failed (reachability)',
    },
    {
      kind: 'SystemStatusFailed',
      forceful: true,
      message: 'system status check failed (reachability)',
    },
    { kind: 'ScheduledEvent', forceful: false, message: 'scheduled event (reachability)' },
  ] as const)('$kind drains the claim, forcefully: $forceful', ({ kind, forceful, message }) => {
    // Act
    const action = interruptionAction(
      { id: 'x', kind, instanceIds: ['i-0123456789'], time: AN_HOUR_AGO, checks: ['reachability'] },
      undefined,
    );

    // Assess
    expect(action).toEqual({
      kind: 'CordonAndDrain',
      reason: 'InstanceUnhealthy',
      message,
      markOfferingUnavailable: false,
      forceful,
    });
  });
});

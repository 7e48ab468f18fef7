/**
 * What each interruption means for its node (aws: pkg/controllers/interruption/utils.go
 * actionForMessage, and the events of interruption/events/events.go).
 */
import { describe, expect, it } from 'vitest';
import { interruptionAction } from '../../../functions/domain/interruption/interruption-action.ts';
import type { InterruptionMessage } from '../../../functions/domain/interruption/interruption-message.ts';
import { isInterrupted } from '../../../functions/domain/limits/claim-charges.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aNodePool } from '../../support/builders.ts';

function aMessage(rest: Pick<InterruptionMessage, 'kind'> & Partial<InterruptionMessage>) {
  return { id: 'event-1', instanceIds: ['i-0abc'], time: '2026-11-24T09:00:00Z', ...rest };
}

describe('interruptionAction', () => {
  it.each([
    { kind: 'SpotInterruption' as const, reason: 'SpotInterrupted', offering: true },
    {
      kind: 'CapacityReservationInterruption' as const,
      reason: 'CapacityReservationInstanceInterrupted',
      offering: false,
    },
    { kind: 'ScheduledChange' as const, reason: 'ScheduledChange', offering: false },
  ])('cordons and drains on $kind, with reason $reason', ({ kind, reason, offering }) => {
    // Act
    const action = interruptionAction(aMessage({ kind }), aNodePool());

    // Assess
    expect(action).toMatchObject({
      kind: 'CordonAndDrain',
      reason,
      markOfferingUnavailable: offering,
    });
  });

  it('counts a claim a capacity reservation interruption takes as interrupted, so its replacement may launch at a limit', () => {
    // Prepare
    const action = interruptionAction(
      aMessage({ kind: 'CapacityReservationInterruption' }),
      aNodePool(),
    );
    if (action.kind !== 'CordonAndDrain') throw new Error('expected a drain');
    const claim = {
      ...aNewNodeClaim({ name: 'default-cr001' }),
      version: 1,
      disruption: {
        reason: action.reason,
        message: action.message,
        decidedAt: '2026-11-24T09:00:00Z',
      },
    };

    // Act
    const interrupted = isInterrupted(claim);

    // Assess
    expect(interrupted).toBe(true);
  });
});

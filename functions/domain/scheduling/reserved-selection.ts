/**
 * Instance selection with reservations counted: a claim is reserved only in a reservation the
 * plan has not filled, and pinned to exactly one (`capacity-reservation-id In [id]`), so its
 * launch targets that reservation and the ledger stays exact (core: scheduling/nodeclaim.go
 * tightens a claim with reserved offerings to `reserved` and their ids). A claim that finds every
 * compatible reservation full falls back to the next capacity type its requirements allow.
 */
import { Label } from '../labels.ts';
import { requirement } from '../requirements/requirement.ts';
import { add, type Requirements, requirementsOf } from '../requirements/requirements.ts';
import { type InstanceSelection, selectInstances } from './instance-selection.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import type { ReservationLedger } from './reservation-ledger.ts';

export interface ReservedSelectionInput {
  readonly template: NodeClaimTemplate;
  readonly requirements: Requirements;
  readonly isOpen: (index: number) => boolean;
  readonly ledger: ReservationLedger;
}

function narrowed(requirements: Requirements, key: string, op: 'In' | 'NotIn', values: string[]) {
  return add(requirements, requirementsOf([requirement(key, op, values)]));
}

export function selectReserving(input: ReservedSelectionInput): InstanceSelection | undefined {
  const { template, isOpen, ledger } = input;
  const first = selectInstances(input);
  if (first?.capacityType !== 'reserved') return first;
  const full = ledger.exhausted();
  const open =
    full.length === 0
      ? input.requirements
      : narrowed(input.requirements, Label.capacityReservationId, 'NotIn', full);
  const reserved =
    full.length === 0 ? first : selectInstances({ template, isOpen, requirements: open });
  const id =
    reserved?.capacityType === 'reserved' ? reserved.options[0]?.offering.reservationId : undefined;
  if (id === undefined) {
    const others = narrowed(input.requirements, Label.capacityType, 'NotIn', ['reserved']);
    return selectInstances({ template, isOpen, requirements: others });
  }
  const pinned = narrowed(input.requirements, Label.capacityReservationId, 'In', [id]);
  const selection = selectInstances({ template, isOpen, requirements: pinned });
  if (selection !== undefined) ledger.take(id);
  return selection;
}

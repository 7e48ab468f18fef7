import { describe, expect, it } from 'vitest';
import { doNotDisrupt } from '../../../functions/domain/disruption/do-not-disrupt.ts';

const KEY = 'karpenter.sh/do-not-disrupt';
const STARTED = '2026-06-01T10:00:00Z';
const at = (iso: string) => Date.parse(iso);

describe('karpenter.sh/do-not-disrupt', () => {
  it('protects while "true"', () => {
    expect(doNotDisrupt({ [KEY]: 'true' }, STARTED, at('2027-01-01T00:00:00Z')).active).toBe(true);
  });

  it('protects for a duration after the pod started, then no longer', () => {
    expect(doNotDisrupt({ [KEY]: '4h' }, STARTED, at('2026-06-01T13:59:00Z'))).toEqual({
      active: true,
      untilMs: at('2026-06-01T14:00:00Z'),
    });
    expect(doNotDisrupt({ [KEY]: '4h' }, STARTED, at('2026-06-01T14:00:00Z')).active).toBe(false);
    expect(doNotDisrupt({ [KEY]: '1h30m' }, STARTED, at('2026-06-01T11:29:00Z')).active).toBe(true);
  });

  it('fails safe when the start is unknown', () => {
    expect(doNotDisrupt({ [KEY]: '5m' }, undefined, at('2030-01-01T00:00:00Z')).active).toBe(true);
  });

  it('ignores values that are neither true nor a positive duration, as Karpenter does', () => {
    for (const value of ['false', 'yes', '-1h', '0s', '']) {
      expect(doNotDisrupt({ [KEY]: value }, STARTED, at(STARTED)).active).toBe(false);
    }
    expect(doNotDisrupt({}, STARTED, at(STARTED)).active).toBe(false);
  });
});

/**
 * The admission wake's window (docs/audit-relay.md, "The admission wake"). Admission calls come
 * one object at a time, hundreds a second in a burst, and Lambda spreads them over as many relay
 * containers as arrive at once; the window, one for the cluster, turns them into at most two
 * wakes: the first call wakes the controller at once and opens the window, the first after it
 * within the window takes its one wake delayed to the window's end (so a pod created after the
 * woken pass took its snapshot still gets a pass without waiting for the tick), and the rest are
 * covered by those two (docs/design.md §1.2: a wake carries no work).
 */
import { isLive } from './expiry.ts';

export interface WakeWindow {
  /** ISO-8601: when the window closes; a call from then on opens the next one. */
  readonly endsAt: string;
  /** Whether a call has taken the window's delayed wake. */
  readonly deferredTaken: boolean;
}

/** What one call does: wake at once, wake at the window's end, or nothing. */
export type WakeOutcome = 'woke' | 'deferred' | 'covered';

export interface WakeTurn {
  readonly outcome: WakeOutcome;
  /** The window as this call leaves it. */
  readonly window: WakeWindow;
}

/** The window a call at `now` opens. */
export function openedWindow(now: Date, windowMs: number): WakeWindow {
  return { endsAt: new Date(now.getTime() + windowMs).toISOString(), deferredTaken: false };
}

/** The turn of a call at `now`, given the window as stored (undefined: none was ever opened). */
export function takeWakeTurn(
  window: WakeWindow | undefined,
  now: Date,
  windowMs: number,
): WakeTurn {
  if (window === undefined || !isLive(window.endsAt, now)) {
    return { outcome: 'woke', window: openedWindow(now, windowMs) };
  }
  if (window.deferredTaken) return { outcome: 'covered', window };
  return { outcome: 'deferred', window: { ...window, deferredTaken: true } };
}

/** SQS delays in whole seconds: the delayed wake lands at the window's end or just after it. */
export function secondsToEnd(window: WakeWindow, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(window.endsAt) - now.getTime()) / 1000));
}

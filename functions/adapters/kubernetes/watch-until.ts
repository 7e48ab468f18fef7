/**
 * A watch read until its handler says enough, or until the server ends it: client-node's Watch
 * calls back per event and once when the stream ends; this makes one promise of the two and
 * closes the connection as soon as the handler is done.
 */
import type { WatchClient } from './clients.ts';

/** What the handler makes of an event: read on, or stop with this outcome. */
export type WatchVerdict<T> =
  | { readonly more: true }
  | { readonly more: false; readonly outcome: T };

export const READ_ON = { more: true } as const;

export interface WatchRequest {
  readonly path: string;
  readonly query: Record<string, string | number | boolean>;
  /** Closes the watch when it aborts; nothing more reaches the handler. */
  readonly signal?: AbortSignal;
}

/**
 * Resolves with the handler's outcome, or with `ended` when the server ends the watch first (or
 * the signal aborts it); rejects when the request fails or the handler throws.
 */
export function watchUntil<T, E>(
  watch: WatchClient,
  request: WatchRequest,
  handle: (type: string, object: unknown) => WatchVerdict<T>,
  ended: E,
): Promise<T | E> {
  return new Promise<T | E>((resolve, reject) => {
    let settled = false;
    let stop: (() => void) | undefined;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      stop?.();
      finish();
    };
    request.signal?.addEventListener('abort', () => settle(() => resolve(ended)), { once: true });
    const onEvent = (type: string, object: unknown) => {
      if (settled) return;
      try {
        const verdict = handle(type, object);
        if (!verdict.more) settle(() => resolve(verdict.outcome));
      } catch (err) {
        settle(() => reject(err));
      }
    };
    const onDone = (err: unknown) =>
      settle(() => (err === null || err === undefined ? resolve(ended) : reject(err)));
    watch
      .watch(request.path, request.query, onEvent, onDone)
      .then((controller) => {
        stop = () => controller.abort();
        if (settled) stop();
      })
      .catch(onDone);
  });
}

/**
 * What a watch asks of its start, as kube-apiserver reads it: `sendInitialEvents` and
 * `resourceVersionMatch`, the streamed list of KEP-3157 ("watch-list"). The query is defaulted
 * and validated as k8s.io/apimachinery does (pkg/apis/meta/internalversion/defaults.go,
 * `SetListOptionsDefaults`, and validation/validation.go, `validateWatchOptions`): with the
 * WatchList feature gate on, a watch from no resourceVersion (or `0`) is a streamed list; a
 * request that breaks the rules is answered 422, `ListOptions.meta.k8s.io "" is invalid`.
 */

import { type FieldError, forbidden, notSupported } from '../field-errors.ts';
import { invalid } from '../status-errors.ts';

const NOT_OLDER_THAN = 'NotOlderThan';
const LIST_OPTIONS = { group: 'meta.k8s.io', kind: 'ListOptions' };

/**
 * `runtime.Convert_Slice_string_To_Pointer_bool`: absent is unset; `0`, `f` and `false` (any
 * case) are false; anything else is true.
 */
function optionalBool(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  return !(value === '0' || /^(f|false)$/i.test(value));
}

function errorsOf(
  sendInitialEvents: boolean | undefined,
  match: string,
  query: URLSearchParams,
  watchList: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  if (sendInitialEvents !== undefined) {
    if (match !== NOT_OLDER_THAN) {
      const detail = `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`;
      errors.push(forbidden('resourceVersionMatch', detail));
    }
    if (!watchList) {
      const detail =
        'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled';
      errors.push(forbidden('sendInitialEvents', detail));
    }
  }
  if (match !== '') {
    if (sendInitialEvents === undefined) {
      const detail =
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided';
      errors.push(forbidden('resourceVersionMatch', detail));
    }
    if (match !== NOT_OLDER_THAN)
      errors.push(notSupported('resourceVersionMatch', match, [NOT_OLDER_THAN]));
    if (query.get('continue')) {
      errors.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden when continue is provided',
        ),
      );
    }
  }
  return errors;
}

/**
 * Whether the watch streams the current state first (true), starts from its resourceVersion as
 * asked (false), or, unset, as watches always did (the state first from no resourceVersion or
 * `0`, the changes after it otherwise). Throws the 422 for options the server refuses.
 */
export function sendInitialEventsOf(
  query: URLSearchParams,
  watchList: boolean,
): boolean | undefined {
  let sendInitialEvents = optionalBool(query.get('sendInitialEvents'));
  let match = query.get('resourceVersionMatch') ?? '';
  const resourceVersion = query.get('resourceVersion') ?? '';
  if (watchList && sendInitialEvents === undefined && match === '') {
    if (resourceVersion === '' || resourceVersion === '0') {
      sendInitialEvents = true;
      match = NOT_OLDER_THAN;
    }
  }
  const errors = errorsOf(sendInitialEvents, match, query, watchList);
  if (errors.length > 0) throw invalid(LIST_OPTIONS, '', errors);
  return sendInitialEvents;
}

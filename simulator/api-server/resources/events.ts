/** core/v1 events, selectable by the involved object and by reason, source and type. */

import { type JsonObject, valueAt } from '../json.ts';
import { describeResource, META_FIELD_SELECTORS } from '../resource-descriptor.ts';

function text(path: string): (event: JsonObject) => string {
  return (event) => {
    const value = valueAt(event, path);
    return value === undefined || value === null ? '' : String(value);
  };
}

export const events = describeResource({
  resource: 'events',
  kind: 'Event',
  namespaced: true,
  fieldSelectors: {
    ...META_FIELD_SELECTORS,
    'involvedObject.kind': text('involvedObject.kind'),
    'involvedObject.namespace': text('involvedObject.namespace'),
    'involvedObject.name': text('involvedObject.name'),
    'involvedObject.uid': text('involvedObject.uid'),
    'involvedObject.apiVersion': text('involvedObject.apiVersion'),
    'involvedObject.resourceVersion': text('involvedObject.resourceVersion'),
    'involvedObject.fieldPath': text('involvedObject.fieldPath'),
    reason: text('reason'),
    reportingComponent: text('reportingComponent'),
    source: text('source.component'),
    type: text('type'),
  },
});

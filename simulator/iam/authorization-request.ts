/**
 * What one call asks IAM: each action on each resource it touches, with the request context
 * AWS supplies (Service Authorization Reference, "Actions, resources, and condition keys"), and
 * where the call is made. Tags appear in the context as AWS puts them there: the request's as
 * `aws:RequestTag/<key>` and `aws:TagKeys`, a resource's as `aws:ResourceTag/<key>` and under
 * the service's own prefix (`ec2:ResourceTag/<key>`, `iam:ResourceTag/<key>`).
 */

export type ContextValues = Readonly<Record<string, string | readonly string[]>>;

export interface Authorization {
  readonly action: string;
  readonly resource: string;
  readonly context: ContextValues;
}

/** The partition, account and region a call is made in: the region of its credential scope. */
export interface CallPlace {
  readonly partition: string;
  readonly accountId: string;
  readonly region: string;
}

export type Tags = Readonly<Record<string, string>>;

/** The context keys of tags a request writes. */
export function requestTags(tags: Tags): ContextValues {
  const keys = Object.keys(tags);
  return {
    ...Object.fromEntries(keys.map((key) => [`aws:RequestTag/${key}`, tags[key] as string])),
    'aws:TagKeys': keys,
  };
}

/** The context keys of the tags a resource holds; none for a resource nothing holds. */
export function resourceTags(tags: Tags | undefined, servicePrefix?: string): ContextValues {
  const entries = Object.entries(tags ?? {});
  return Object.fromEntries(
    entries.flatMap(([key, value]) => [
      [`aws:ResourceTag/${key}`, value],
      ...(servicePrefix === undefined ? [] : [[`${servicePrefix}:ResourceTag/${key}`, value]]),
    ]),
  );
}

/**
 * An update the API server's validation refuses whatever the resourceVersion, as kube-apiserver
 * refuses one that breaks a CRD's transition rule (422 Invalid), naming the field.
 */
export class InvalidUpdateError extends Error {
  override readonly name = 'InvalidUpdateError';
  readonly field: string;

  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

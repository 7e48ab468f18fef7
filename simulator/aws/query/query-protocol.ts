/**
 * The two query protocols as a service speaks them (docs/design.md §9): the request is a form
 * (`Action`, `Version` and the input, in the body or, for a presigned URL, the query string),
 * the answer XML. EC2's response holds the output's members beside `requestId` under
 * `<ActionResponse>`, its errors `<Response><Errors><Error>`; the AWS query protocol of IAM and
 * STS nests them in `<ActionResult>` with `<ResponseMetadata>`, its errors in
 * `<ErrorResponse><Error>` with a `Type`.
 */
import { createHash } from 'node:crypto';
import type { StaticOperationSchema } from '@smithy/types';
import {
  AwsError,
  type AwsHttpRequest,
  type AwsHttpResponse,
  type AwsOperation,
} from '../aws-service.ts';
import { readQueryInput } from './query-form.ts';
import { element, escapeXml, membersXml } from './query-xml.ts';

export type OperationTable = Readonly<Record<string, StaticOperationSchema>>;

export interface QueryProtocolOptions {
  readonly operations: OperationTable;
  /** The namespace of the service's response documents. */
  readonly xmlNamespace: string;
  /** EC2's dialect of the protocol, else the AWS query protocol. */
  readonly ec2: boolean;
}

/** EC2, IAM and STS send the request id in a header as well as in the document. */
function xmlHeaders(id: string): Record<string, string> {
  return { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': id };
}

/** A request id as AWS writes them, the same for the same request. */
function requestId(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function inputSchema(operation: StaticOperationSchema) {
  return operation[4];
}

function outputSchema(operation: StaticOperationSchema) {
  return operation[5];
}

export class QueryProtocol {
  readonly #options: QueryProtocolOptions;
  #requests = 0;

  constructor(options: QueryProtocolOptions) {
    this.#options = options;
  }

  decode(request: AwsHttpRequest): AwsOperation {
    const params = new URLSearchParams(request.query);
    for (const [key, value] of new URLSearchParams(request.body)) params.append(key, value);
    const name = params.get('Action') ?? '';
    const operation = this.#options.operations[name];
    if (operation === undefined) {
      throw new AwsError('InvalidAction', `The action ${name} is not valid for this web service.`);
    }
    return {
      name,
      input: readQueryInput(inputSchema(operation), params, { ec2: this.#options.ec2 }),
    };
  }

  encode(operation: AwsOperation, output: unknown): AwsHttpResponse {
    const schema = this.#options.operations[operation.name];
    const members = schema === undefined ? '' : membersXml(outputSchema(schema), output);
    const id = this.#nextRequestId();
    const body = this.#options.ec2
      ? element('requestId', id) + members
      : element(`${operation.name}Result`, members) +
        element('ResponseMetadata', element('RequestId', id));
    const root = `${operation.name}Response`;
    return {
      status: 200,
      headers: xmlHeaders(id),
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${this.#options.xmlNamespace}">${body}</${root}>`,
    };
  }

  encodeError(error: AwsError): AwsHttpResponse {
    const id = this.#nextRequestId();
    const code = element('Code', escapeXml(error.code));
    const message = element('Message', escapeXml(error.message));
    const body = this.#options.ec2
      ? element(
          'Response',
          element('Errors', element('Error', code + message)) + element('RequestID', id),
        )
      : `<ErrorResponse xmlns="${this.#options.xmlNamespace}">${element(
          'Error',
          element('Type', error.status >= 500 ? 'Receiver' : 'Sender') + code + message,
        )}${element('RequestId', id)}</ErrorResponse>`;
    return {
      status: error.status,
      headers: xmlHeaders(id),
      body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
    };
  }

  #nextRequestId(): string {
    this.#requests += 1;
    return requestId(`${this.#options.xmlNamespace}#${this.#requests}`);
  }
}

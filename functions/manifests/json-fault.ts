/**
 * The first fault of a text that `JSON.parse` refused, and where it lies: V8's messages give no
 * offset for some faults ("Unexpected token ']', …"), so jsonc-parser reads the text again. It
 * would accept comments and trailing commas; here, as in JSON, they are faults.
 */
import { type JSONPath, type JSONVisitor, printParseErrorCode, visit } from 'jsonc-parser';
import { DOCUMENT_BOUNDS } from './document-bounds.ts';

/** jsonc-parser's name of the fault, or TooDeep where the reading stopped at the nesting bound. */
export type FaultCode = ReturnType<typeof printParseErrorCode> | 'TooDeep';

export interface JsonFault {
  readonly code: FaultCode;
  readonly offset: number;
  /** The token found there: '' at the end of the text. */
  readonly token: string;
  /** Whether the fault lies in an array (else in an object, or outside both). */
  readonly inArray: boolean;
  /** Whether a property name was expected there. */
  readonly atKey: boolean;
  /** The path to where the fault lies. */
  readonly path: JSONPath;
}

/** Thrown by the visitor to stop at the first fault. */
const STOP = Symbol('stop');

const STRICT = { disallowComments: true, allowTrailingComma: false };

/** jsonc-parser recurses, so the reading stops past the bound (a root array adds a level). */
const MAX_DEPTH = DOCUMENT_BOUNDS.maxDepth + 1;

/** The first fault, or undefined where jsonc-parser finds none. */
export function firstJsonFault(text: string): JsonFault | undefined {
  const reader = new FaultReader(text);
  try {
    visit(text, reader.visitor, STRICT);
  } catch (error) {
    if (error !== STOP) throw error;
  }
  return reader.fault;
}

class FaultReader {
  fault: JsonFault | undefined;
  /** Whether each collection open around the current token is an array, innermost last. */
  private readonly arrays: boolean[] = [];
  private atKey = false;

  constructor(private readonly text: string) {}

  readonly visitor: JSONVisitor = {
    onObjectBegin: (offset, _length, _line, _column, pathOf) => this.open(false, offset, pathOf),
    onArrayBegin: (offset, _length, _line, _column, pathOf) => this.open(true, offset, pathOf),
    onObjectEnd: () => this.close(),
    onArrayEnd: () => this.close(),
    onObjectProperty: () => {
      this.atKey = false;
    },
    onLiteralValue: () => {
      this.atKey = false;
    },
    onSeparator: (character) => {
      this.atKey = character === ',' && this.arrays.at(-1) === false;
    },
    onError: (error, offset, length, _line, _column) => {
      // A byte order mark, which some editors write, is not JSON but is skipped before reading.
      if (offset === 0 && this.text.charCodeAt(0) === 0xfeff) return;
      this.stop(printParseErrorCode(error), offset, length, []);
    },
  };

  private open(array: boolean, offset: number, pathOf: () => JSONPath): void {
    this.arrays.push(array);
    this.atKey = !array;
    if (this.arrays.length > MAX_DEPTH) this.stop('TooDeep', offset, 1, pathOf());
  }

  private close(): void {
    this.arrays.pop();
    this.atKey = false;
  }

  private stop(code: FaultCode, offset: number, length: number, path: JSONPath): never {
    const token = this.text.slice(offset, offset + length);
    const inArray = this.arrays.at(-1) === true;
    this.fault = { code, offset, token, inArray, atKey: this.atKey, path };
    throw STOP;
  }
}

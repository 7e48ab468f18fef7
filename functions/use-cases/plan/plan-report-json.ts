/**
 * The plan report as compact JSON, byte for byte what `JSON.stringify` writes, UTF-8 encoded
 * and ready to write out. Most of a large plan's JSON is `instanceTypeOptions` — up to 600 names
 * per claim, 10 of the 11 MB at 5,000 pods of Karpenter's benchmark mix — and the claims share a
 * few lists (node-claim-report.ts), so each distinct list is written and encoded once and then
 * copied; the rest is written in pieces, so the whole text never exists as one string before
 * it is encoded.
 */
import type { PlanReport } from './plan-report.ts';

const encoder = new TextEncoder();

/** Pieces of text so far, kept as bytes; text is encoded in runs of this many characters. */
const TEXT_RUN = 1 << 16;

class JsonBytes {
  private readonly pieces: Uint8Array[] = [];
  private text = '';

  write(text: string): void {
    this.text += text;
    if (this.text.length >= TEXT_RUN) this.flush();
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush();
    this.pieces.push(bytes);
  }

  bytes(): Uint8Array {
    this.flush();
    const out = new Uint8Array(this.pieces.reduce((sum, piece) => sum + piece.length, 0));
    let at = 0;
    for (const piece of this.pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  }

  private flush(): void {
    if (this.text === '') return;
    this.pieces.push(encoder.encode(this.text));
    this.text = '';
  }
}

type FieldWriter = (key: string, value: unknown) => void;

/** An object as JSON.stringify writes a plain data object, each field's value by `writeValue`. */
function writeObject(out: JsonBytes, object: object, writeValue: FieldWriter): void {
  let separator = '{';
  for (const [key, value] of Object.entries(object)) {
    // JSON.stringify leaves undefined fields out.
    if (value === undefined) continue;
    out.write(`${separator}${JSON.stringify(key)}:`);
    writeValue(key, value);
    separator = ',';
  }
  out.write(separator === '{' ? '{}' : '}');
}

export function planReportJson(report: PlanReport): Uint8Array {
  const out = new JsonBytes();
  const lists = new Map<unknown, Uint8Array>();
  const writeList = (names: unknown): void => {
    let bytes = lists.get(names);
    if (bytes === undefined) {
      bytes = encoder.encode(JSON.stringify(names));
      lists.set(names, bytes);
    }
    out.writeBytes(bytes);
  };
  const writeClaimField: FieldWriter = (key, value) => {
    if (key === 'instanceTypeOptions') writeList(value);
    else out.write(JSON.stringify(value));
  };
  writeObject(out, report, (key, value) => {
    if (key !== 'nodeClaims') return out.write(JSON.stringify(value));
    let separator = '[';
    for (const claim of report.nodeClaims) {
      out.write(separator);
      writeObject(out, claim, writeClaimField);
      separator = ',';
    }
    out.write(separator === '[' ? '[]' : ']');
  });
  return out.bytes();
}

/** An HTTP body, of a request a server received or of a response a client read, as UTF-8 text. */
import type { Readable } from 'node:stream';

/** Every chunk until the stream ends; rejects when the stream fails. */
export async function readBody(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * MIME multi-part user data, the container cloud-init and nodeadm read (aws:
 * pkg/providers/amifamily/bootstrap/mime/mime.go). Reading keeps each part's headers and content
 * as the user wrote them; writing uses Karpenter's layout with LF line endings.
 */

export interface MimePart {
  /** Header name and value pairs in their original order, `Content-Type` among them. */
  readonly headers: readonly (readonly [string, string])[];
  readonly content: string;
}

export const ContentType = {
  nodeConfig: 'application/node.eks.aws',
  shellScript: 'text/x-shellscript; charset="us-ascii"',
} as const;

export class MimeError extends Error {
  override readonly name = 'MimeError';
}

/** Whether user data is a MIME document rather than a script or a NodeConfig. */
export function isMime(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith('MIME-Version:') || start.startsWith('Content-Type:');
}

function splitHeaders(text: string): { headers: [string, string][]; body: string } {
  if (text.startsWith('\n')) return { headers: [], body: text.slice(1) };
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const body = end < 0 ? '' : text.slice(end + 2);
  const headers: [string, string][] = [];
  for (const line of head.split('\n')) {
    const last = headers.at(-1);
    // A line starting with white space continues the previous header (RFC 5322 folding).
    if (/^[ \t]/.test(line) && last !== undefined) last[1] = `${last[1]} ${line.trim()}`;
    else if (line.includes(':')) {
      headers.push([
        line.slice(0, line.indexOf(':')).trim(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]);
    }
  }
  return { headers, body };
}

export function headerValue(
  headers: readonly (readonly [string, string])[],
  name: string,
): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
}

function boundaryOf(contentType: string | undefined): string {
  if (contentType === undefined || !contentType.toLowerCase().startsWith('multipart/')) {
    throw new MimeError('user data is MIME but not multipart');
  }
  const match = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) throw new MimeError('multipart user data has no boundary');
  return boundary;
}

/** The parts of a multi-part document; text before the first boundary is a preamble and dropped. */
export function parseMime(text: string): MimePart[] {
  const { headers, body } = splitHeaders(text.replace(/\r\n/g, '\n'));
  const boundary = boundaryOf(headerValue(headers, 'Content-Type'));
  const open = `--${boundary}`;
  const close = `${open}--`;
  const parts: MimePart[] = [];
  let lines: string[] | undefined;
  for (const line of body.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed !== open && trimmed !== close) {
      lines?.push(line);
      continue;
    }
    if (lines !== undefined) parts.push(toPart(lines.join('\n')));
    if (trimmed === close) return parts;
    lines = [];
  }
  throw new MimeError(`multipart user data does not end with --${boundary}--`);
}

function toPart(text: string): MimePart {
  const { headers, body } = splitHeaders(text);
  return { headers, content: body };
}

/** A boundary no part contains: Karpenter's `//` unless a part would end early on it. */
function boundaryFor(parts: readonly MimePart[]): string {
  let boundary = '//';
  while (parts.some((part) => part.content.includes(`--${boundary}`))) boundary = `${boundary}=`;
  return boundary;
}

export function serializeMime(parts: readonly MimePart[]): string {
  const boundary = boundaryFor(parts);
  const sections = parts.map((part) => {
    const headers = part.headers.map(([name, value]) => `${name}: ${value}\n`).join('');
    return `--${boundary}\n${headers}\n${part.content}\n`;
  });
  return [
    'MIME-Version: 1.0\n',
    `Content-Type: multipart/mixed; boundary="${boundary}"\n\n`,
    ...sections,
    `--${boundary}--\n`,
  ].join('');
}

export function part(contentType: string, content: string): MimePart {
  return { headers: [['Content-Type', contentType]], content };
}

/**
 * What an EventBridge target receives for an event: the target's constant `Input`, the part of
 * the event its `InputPath` names, its `InputTransformer`'s template filled from the event, or
 * else the whole event (Amazon EventBridge User Guide, "Transforming target input").
 */
import type { RuleTarget } from './event-rules.ts';

/** The value at a JSON path of the form `$`, `$.detail`, `$.detail.instance-id`. */
function atPath(event: unknown, path: string): unknown {
  if (path === '$') return event;
  return path
    .replace(/^\$\./, '')
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], event);
}

/** `<name>` placeholders filled: strings as they are inside quotes, other values as JSON. */
function transformed(event: unknown, transformer: NonNullable<RuleTarget['inputTransformer']>) {
  const values = Object.fromEntries(
    Object.entries(transformer.inputPathsMap ?? {}).map(([name, path]) => [
      name,
      atPath(event, path),
    ]),
  );
  return transformer.inputTemplate.replace(/<([A-Za-z0-9_.-]+)>/g, (placeholder, name: string) => {
    if (!(name in values)) return placeholder;
    const value = values[name];
    if (value === undefined) return 'null';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

export function targetInput(target: RuleTarget, event: unknown): string {
  if (target.input !== undefined) return target.input;
  if (target.inputPath !== undefined) return JSON.stringify(atPath(event, target.inputPath));
  if (target.inputTransformer !== undefined) return transformed(event, target.inputTransformer);
  return JSON.stringify(event);
}

/** The wake token secret: the current token and, during a rotation, the one it replaces. */
import { describe, expect, it } from 'vitest';
import {
  pathTokenMatches,
  readWakeTokens,
} from '../../../functions/handlers/audit-relay/path-token.ts';

const NEW = 'n'.repeat(48);
const OLD = 'o'.repeat(48);

describe('the wake token secret', () => {
  it('holds the current token and, while rotating, the previous one', () => {
    // Act
    const tokens = readWakeTokens(JSON.stringify({ token: NEW, previousToken: OLD }));

    // Assess
    expect(tokens).toEqual({ current: NEW, previous: OLD });
    expect([NEW, OLD, 'x'.repeat(48)].map((t) => pathTokenMatches(t, tokens))).toEqual([
      true,
      true,
      false,
    ]);
    expect(pathTokenMatches(undefined, tokens)).toBe(false);
  });

  it.each([
    ['text that is not JSON', NEW, 'reading the wake token secret: it is not JSON'],
    ['no token', '{}', 'reading the wake token secret: token'],
    [
      'a token too short to be unguessable',
      JSON.stringify({ token: 'short' }),
      'token must be at least 32 letters',
    ],
    [
      'a token that would not fit in a path',
      JSON.stringify({ token: NEW, previousToken: `${OLD}/x` }),
      'previousToken must be at least 32 letters, digits, - or _',
    ],
  ])('refuses %s, naming what is wrong', (_, text, message) => {
    expect(() => readWakeTokens(text)).toThrow(message);
  });
});

/** Character codes the JSON scanners compare against, named. */
export const Char = {
  tab: 9,
  space: 32,
  doubleQuote: 34,
  colon: 58,
  leftBracket: 91,
  backslash: 92,
  rightBracket: 93,
  leftBrace: 123,
  rightBrace: 125,
} as const;

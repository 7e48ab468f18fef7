/**
 * The flags a function's process starts with: Lambda's Node.js bootstrap divides the function's
 * memory between V8's young and old generations, a tenth to the young.
 */
import { describe, expect, it } from 'vitest';
import { lambdaNodeArguments } from '../../../simulator/lambda/node-arguments.ts';

describe("a function's node flags", () => {
  it.each([
    [2048, 102, 1844],
    [256, 12, 231],
    [128, 6, 116],
  ])(
    'give a function of %i MB semi-spaces of %i MB and an old generation of %i MB',
    (memory, semi, old) => {
      // Act
      const flags = lambdaNodeArguments(memory);

      // Assess
      expect(flags).toEqual([
        '--expose-gc',
        '--max-http-header-size=81920',
        `--max-semi-space-size=${semi}`,
        `--max-old-space-size=${old}`,
      ]);
    },
  );
});

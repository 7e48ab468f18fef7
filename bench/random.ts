/** The simulations' seeded generator, so every benchmark run builds the same pods. */
import { seededRandom } from '../simulator/scenarios/random.ts';

export { seededRandom };

export function pick<T>(random: () => number, values: readonly T[]): T {
  const value = values[Math.floor(random() * values.length)];
  if (value === undefined) throw new Error('pick from an empty list');
  return value;
}

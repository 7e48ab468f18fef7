/**
 * The machine's cores, which every container of the twin shares. Lambda gives each execution
 * environment a CPU share of its own, so one function's burst of cold starts never slows another
 * function's invocation; here twenty containers starting at once can leave each a tenth of a
 * core. So a timeout is armed stretched by how many containers are busy per core at that moment:
 * an invocation times out for its own slowness, not for waiting on the others' CPU.
 */
import { availableParallelism } from 'node:os';

export class SharedCores {
  readonly #cores: number;
  #busy = 0;

  constructor(cores = availableParallelism()) {
    this.#cores = cores;
  }

  /** A container starts running; the function returned says it stopped (once). */
  enter(): () => void {
    this.#busy += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#busy -= 1;
    };
  }

  /** How many times longer than its nominal length a timeout armed now lasts. */
  get stretch(): number {
    return Math.max(1, this.#busy / this.#cores);
  }
}

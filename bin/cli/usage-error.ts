/** A command line the user must correct: printed as one line, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

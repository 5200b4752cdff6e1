/** A mistake in how a command was called: printed without a stack trace, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on (data dir locked, file unreadable): printed without a stack, exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

/**
 * An error as one short line: Node's connection failures to `localhost` are AggregateErrors with
 * an empty message (one attempt per address family), so their parts are named instead.
 */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return [...new Set(error.errors.map((e: unknown) => describeError(e)))].join('; ');
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error.message.split('\n')[0] ?? '';
    return message || code || error.name;
  }
  return String(error);
}

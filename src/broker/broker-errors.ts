/**
 * True for the errors ioredis raises while Redis cannot be reached: a command that exhausted its
 * retries, a connection closed under it, or a command refused because the connection is not
 * writable (the guard connection queues nothing while offline).
 */
export function isBrokerUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return (
    error.message === 'Connection is closed.' ||
    error.message.startsWith("Stream isn't writeable") ||
    error.message.startsWith('Redis is unavailable')
  );
}

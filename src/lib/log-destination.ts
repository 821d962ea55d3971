import type { DestinationStream } from 'pino';

/** Log bytes held for a reader that is not reading before lines are dropped: minutes of a busy server's log. */
export const MAX_LOG_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * Where the JSON log goes: stdout, without ever holding the service up. pino's default
 * destination writes to fd 1 synchronously, so a log pipe whose reader stops reading blocks every
 * request once the pipe is full, and one whose reader is gone (`… | cat` after SIGTERM to the
 * group) fails each write. Here lines go through Node's own stdout stream (asynchronous for
 * pipes, synchronous for files and terminals); past `maxBacklogBytes` of unwritten log, lines are
 * dropped and counted, and once the stream fails (EPIPE) logging stops instead of failing.
 */
export function stdoutDestination(
  stream: NodeJS.WritableStream & { writableLength: number } = process.stdout,
  maxBacklogBytes = MAX_LOG_BACKLOG_BYTES,
): DestinationStream & { dropped(): number } {
  let broken = false;
  let dropped = 0;
  stream.on('error', () => {
    broken = true;
  });
  return {
    write(line: string) {
      if (broken) return;
      if (stream.writableLength > maxBacklogBytes) {
        dropped += 1;
        return;
      }
      stream.write(line);
    },
    dropped: () => dropped,
  };
}

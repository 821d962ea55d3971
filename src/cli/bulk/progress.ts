import { SingleBar } from 'cli-progress';

export interface RowProgress {
  /** Rows done so far, earlier runs' included (never more than the file holds). */
  update(done: number): void;
  /** Ends the bar's line; nothing is drawn after it (call before printing anything else). */
  stop(): void;
}

/** A bar with rows, rate and ETA on stderr, only when a person is watching (a TTY). */
export function rowProgress(total: number, alreadyDone: number, stream: NodeJS.WriteStream = process.stderr): RowProgress {
  if (!stream.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar({
    stream,
    format: 'validating [{bar}] {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
    hideCursor: true,
    etaBuffer: 2000,
    fps: 5,
    // Ctrl-C is the command's to handle: it stops the bar before it prints its note. The bar's own
    // handler ran first and then restored the cursor above that note, so the summary overwrote it.
    gracefulExit: false,
  });
  const started = Date.now();
  let stopped = false;
  bar.start(total, alreadyDone, { rate: 0 });
  return {
    update(done) {
      if (stopped) return;
      const seconds = (Date.now() - started) / 1000;
      bar.update(Math.min(done, total), { rate: seconds > 0 ? Math.round((done - alreadyDone) / seconds) : 0 });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

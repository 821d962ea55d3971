import { SingleBar } from 'cli-progress';

export interface RowProgress {
  tick(): void;
  stop(): void;
}

/** A bar with rows, rate and ETA on stderr, only when a person is watching (a TTY). */
export function rowProgress(total: number, alreadyDone: number, stream: NodeJS.WriteStream = process.stderr): RowProgress {
  if (!stream.isTTY) return { tick() {}, stop() {} };
  const bar = new SingleBar({
    stream,
    format: 'validating [{bar}] {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
    hideCursor: true,
    etaBuffer: 2000,
    fps: 5,
  });
  const started = Date.now();
  let done = alreadyDone;
  bar.start(total, done, { rate: 0 });
  return {
    tick() {
      done++;
      const seconds = (Date.now() - started) / 1000;
      bar.update(done, { rate: seconds > 0 ? Math.round((done - alreadyDone) / seconds) : 0 });
    },
    stop: () => bar.stop(),
  };
}

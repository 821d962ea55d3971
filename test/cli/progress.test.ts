import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { rowProgress } from '../../src/cli/bulk/progress.js';

/** A stream that says it is a terminal, collecting what is drawn on it. */
function terminal(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  let text = '';
  stream.on('data', (d: Buffer) => void (text += d.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('the progress bar of addressd validate', () => {
  it('shows rows done of all, the rate and the ETA on a terminal, counting resumed rows as done', () => {
    const tty = terminal(true);
    const bar = rowProgress(1000, 400, tty.stream);
    for (let i = 401; i <= 500; i++) bar.update(i);
    bar.stop();
    expect(tty.text()).toMatch(/validating \[[^\]]*\] 50% \| 500\/1000 rows \| \d+ rows\/s \| ETA /);
  });

  it('draws nothing when nobody watches (output piped to a file)', () => {
    const pipe = terminal(false);
    const bar = rowProgress(10, 0, pipe.stream);
    bar.update(1);
    bar.stop();
    expect(pipe.text()).toBe('');
  });
});

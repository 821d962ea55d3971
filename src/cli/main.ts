import { runCli } from './program.js';

// `addressd … | head` closes the pipe early: that is the reader's choice, not a failure to report.
// A closed terminal (SIGHUP) fails every later write with EIO: a list run still finishes the rows
// in flight and writes its files, it only cannot say so.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = code;

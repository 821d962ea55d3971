// Worker thread of the server's pelias-parser (see pelias.ts): builds the classifier here, off the
// thread that answers requests, then reads each text it is sent. Plain JavaScript, so it loads the
// same beside the TypeScript sources and in dist/. Every reply is posted on `port`, then `signal`
// is set and notified: the caller waits on it synchronously (Atomics.wait) and takes the reply
// with receiveMessageOnPort, so peliasParse() stays a plain function.
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
/** @type {{ port: import('node:worker_threads').MessagePort; signal: Int32Array }} */
const { port, signal } = workerData;

let parser;
let Tokenizer;
let failed;
try {
  const AddressParser = require('pelias-parser/parser/AddressParser');
  Tokenizer = require('pelias-parser/tokenization/Tokenizer');
  parser = new AddressParser();
} catch (error) {
  failed = error instanceof Error ? error.message : String(error);
}
// Built (or given up): slot 1 of the signal says so, read by addressParserReady() (GET /readyz).
Atomics.store(signal, 1, 1);

port.on('message', (text) => {
  let reply;
  if (failed) reply = { error: failed };
  else {
    try {
      const tokenizer = new Tokenizer(text);
      parser.classify(tokenizer);
      parser.solve(tokenizer);
      reply = { pairs: (tokenizer.solution[0]?.pair ?? []).map(({ classification, span }) => [classification.label, span.body, span.start, span.end]) };
    } catch (error) {
      reply = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});

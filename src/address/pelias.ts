import { createRequire } from 'node:module';

/**
 * pelias-parser behind a small typed facade. Building its classifier loads large dictionaries
 * (about 0.5 s on this machine), so it is built once, on first use; a parse then takes under 1 ms.
 */
const require = createRequire(import.meta.url);

/** What we read from pelias-parser's solutions (its own classes are untyped CommonJS). */
interface PeliasSpan {
  body: string;
  start: number;
  end: number;
}
interface PeliasSolution {
  pair: ReadonlyArray<{ classification: { label: string }; span: PeliasSpan }>;
}
interface PeliasTokenizer {
  solution: readonly PeliasSolution[];
}
interface PeliasParser {
  classify(t: PeliasTokenizer): void;
  solve(t: PeliasTokenizer): void;
}

export type PeliasLabel = 'housenumber' | 'street' | 'postcode' | 'locality' | 'region' | 'country' | 'unit' | 'venue';
export type PeliasParse = Partial<Record<PeliasLabel, { value: string; start: number; end: number }>>;

let parser: PeliasParser | undefined;
let Tokenizer: (new (text: string) => PeliasTokenizer) | undefined;

function load(): { parser: PeliasParser; Tokenizer: new (text: string) => PeliasTokenizer } {
  if (!parser || !Tokenizer) {
    const AddressParser = require('pelias-parser/parser/AddressParser') as new () => PeliasParser;
    Tokenizer = require('pelias-parser/tokenization/Tokenizer') as new (text: string) => PeliasTokenizer;
    parser = new AddressParser();
  }
  return { parser, Tokenizer };
}

/** Best pelias solution as label → span (character offsets into `text`); empty when it found none. */
export function peliasParse(text: string): PeliasParse {
  const { parser: p, Tokenizer: T } = load();
  const tokenizer = new T(text);
  p.classify(tokenizer);
  p.solve(tokenizer);
  const out: PeliasParse = {};
  for (const { classification, span } of tokenizer.solution[0]?.pair ?? []) {
    const label = classification.label as PeliasLabel;
    out[label] ??= { value: span.body, start: span.start, end: span.end };
  }
  return out;
}

/** Builds the classifier now (for a warm-up at start-up, so the first request does not pay for it). */
export function warmUpPelias(): void {
  load();
}

import { describe, expect, it } from 'vitest';
import { textReading } from '../../src/local-index/search/plan.js';
import { Prefetched } from '../../src/local-index/store/pg-prefetch.js';
import { guessedAlternatives, guessedAnswers } from '../../src/local-index/store/store.js';

/**
 * The answers a store guesses before the database has said which words and postcodes exist
 * (LookUpInput.prefetch): the plan they give names the search run beside the look-up, so a good
 * guess saves a round trip and a wrong one only costs that search.
 */
const guess = (text: string, country: string) => {
  const reading = textReading(text, true, country);
  return { reading, answers: guessedAnswers(reading.input), alternatives: guessedAlternatives(reading.input) };
};

describe('guessed answers', () => {
  it('a country of plain-number postcodes: only a number of their length is one; a shorter one typed last is one being typed', () => {
    const whole = guess('Lindenweg 17a, 01998 St', 'DE');
    const plan = whole.reading.plan(whole.answers);
    expect(plan.hn?.key).toBe('17a');
    expect(plan.postcode).toEqual({ key: '01998', prefix: false, known: true });
    expect(plan.words.map((t) => t.alts[0]?.word)).toEqual(['lindenweg', 'st']);

    const typing = guess('Bahnhofpfad 22, 0167', 'DE');
    const typed = typing.reading.plan(typing.answers);
    expect(typed.hn?.key).toBe('22');
    expect(typed.postcode).toEqual({ key: '0167', prefix: true, known: true });

    // A house number of three digits is no DE postcode: the number stays the house number.
    const number = guess('Angerallee 108, 02070', 'DE');
    expect(number.reading.plan(number.answers)).toMatchObject({ hn: { key: '108' }, postcode: { key: '02070', prefix: false } });
    expect(whole.alternatives).toEqual([]);
  });

  it('elsewhere every whole candidate is a postcode, and each alone is guessed too', () => {
    const nl = guess('Damrak 17a, 1012 LG', 'NL');
    // The common guess reads the house number as (part of) the postcode (the first candidate found)…
    expect(nl.reading.plan(nl.answers).postcode?.key).toBe('17A1012');
    // …the alternatives include the reading the index will give.
    const plans = nl.alternatives.map((a) => nl.reading.plan(a));
    expect(plans.some((p) => p.postcode?.key === '1012LG' && p.hn?.key === '17a')).toBe(true);
  });
});

describe('Prefetched rows', () => {
  it('rows put twice under one key (two forms that are the same search) are taken twice, then gone', () => {
    const kept = new Prefetched();
    kept.put([
      ['k', [1]],
      ['k', [1]],
    ]);
    expect(kept.take('k')).toEqual([1]);
    expect(kept.take('k')).toEqual([1]);
    expect(kept.take('k')).toBeUndefined();
  });

  it('rows read with a limit answer a search asking as many or fewer (their first ones), never one asking more', () => {
    const kept = new Prefetched();
    kept.put([['a', [1, 2, 3, 4], 4]]);
    expect(kept.take('a', 5)).toBeUndefined();
    expect(kept.take('a', 2)).toEqual([1, 2]);
    expect(kept.take('a', 2)).toBeUndefined();
    // Fewer rows than their limit: all there were.
    kept.put([['b', [1], 4]]);
    expect(kept.take('b', 3)).toEqual([1]);
  });
});

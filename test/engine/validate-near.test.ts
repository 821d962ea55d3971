import { describe, expect, it } from 'vitest';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import { answeringEngine } from './support/answering-engine.js';

/** Hauptstraße 5 in three towns called Neustadt, west to east: the same input fits each equally well. */
const town = (postcode: string, city: string, lat: number, lng: number): ProviderCandidate => ({
  components: { street: 'Hauptstraße', houseNumber: '5', postcode, city, country: 'DE' },
  location: { lat, lng },
  precision: 'address',
});
const WEINSTRASSE = town('67433', 'Neustadt an der Weinstraße', 49.3539, 8.1375);
const COBURG = town('96465', 'Neustadt bei Coburg', 50.3297, 11.1205);
const DOSSE = town('16845', 'Neustadt (Dosse)', 52.8506, 12.4497);
const typed = { components: { street: 'Hauptstraße', houseNumber: '5' }, country: 'DE' };

// Issue 35: in validate, `near` picks between equal candidates and orders the alternatives; it never moves a verdict or a confidence.
describe('near in validate', () => {
  it('picks the nearer of two equal candidates, the other stays the alternative', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE, COBURG] });
    const without = await ask(typed);
    const nearCoburg = await ask({ ...typed, near: { lat: 50.3, lng: 11.1 } });
    expect(without.address?.city).toBe('Neustadt an der Weinstraße');
    expect(nearCoburg.address?.city).toBe('Neustadt bei Coburg');
    expect(nearCoburg.alternatives.map((a) => a.address.city)).toEqual(['Neustadt an der Weinstraße']);
    // Still two places that fit: the customer confirms, exactly as without the position.
    expect(nearCoburg).toMatchObject({ verdict: without.verdict, confidence: without.confidence, action: without.action, reasons: without.reasons });
  });

  it('picks between providers of equal confidence and support the nearer one', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE], photon: [COBURG] });
    expect((await ask({ ...typed, near: { lat: 50.3, lng: 11.1 } })).address?.city).toBe('Neustadt bei Coburg');
    expect((await ask({ ...typed, near: { lat: 49.3, lng: 8.1 } })).address?.city).toBe('Neustadt an der Weinstraße');
  });

  it('lists the alternatives nearest first', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE, COBURG, DOSSE] });
    const byConfidence = await ask(typed);
    const nearDosse = await ask({ ...typed, near: { lat: 52.8, lng: 12.4 } });
    expect(byConfidence.alternatives.map((a) => a.address.city)).toEqual(['Neustadt bei Coburg', 'Neustadt (Dosse)']);
    expect(nearDosse.address?.city).toBe('Neustadt (Dosse)');
    // Coburg (about 300 km away) before Weinstraße (about 480 km).
    expect(nearDosse.alternatives.map((a) => a.address.city)).toEqual(['Neustadt bei Coburg', 'Neustadt an der Weinstraße']);
  });

  it('never turns a wrong answer right: a number the street lacks stays invalid beside the customer', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE] });
    const wrong = { components: { street: 'Hauptstraße', houseNumber: '7', postcode: '67433', city: 'Neustadt an der Weinstraße' }, country: 'DE' };
    const without = await ask(wrong);
    const beside = await ask({ ...wrong, near: { lat: 49.3539, lng: 8.1375 } });
    expect(without.verdict).toBe('invalid');
    expect(beside).toEqual(without);
  });

  it('never prefers a nearer candidate that fits worse', async () => {
    const otherStreet: ProviderCandidate = { ...COBURG, components: { ...COBURG.components, street: 'Hauptmarkt' } };
    const ask = answeringEngine({ local: [WEINSTRASSE, otherStreet] });
    const answer = await ask({ ...typed, near: { lat: 50.3297, lng: 11.1205 } });
    expect(answer.address?.city).toBe('Neustadt an der Weinstraße');
    expect(answer.alternatives).toEqual([]);
  });
});

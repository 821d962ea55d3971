import type { ProviderCandidate } from '../../src/providers/provider.js';

/** One provider's answer as the validate cache keeps it (raw payloads are never cached). */
export interface ProviderAnswer {
  provider: 'pdok' | 'photon' | 'nominatim';
  answered: boolean;
  candidates: Omit<ProviderCandidate, 'raw'>[];
}

const NL = { country: 'NL', state: 'Noord-Holland', city: 'Amsterdam' } as const;

/**
 * What PDOK (BAG), Photon and Nominatim (OpenStreetMap) answer for the three homepage samples, as
 * their adapters map it: BAG address points and OSM building or street points a few metres apart,
 * PDOK's score relative to its best hit, none from Photon and Nominatim. The demo's written-down
 * sample responses must be exactly what the engine decides from these answers.
 */
export const SAMPLE_ANSWERS: Record<string, ProviderAnswer[]> = {
  'Damrak 1, 1012 LG Amsterdam': [
    {
      provider: 'pdok',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Damrak', houseNumber: '1', postcode: '1012 LG' }, location: { lat: 52.3761606, lng: 4.8958547 }, providerConfidence: 1, precision: 'address', label: 'Damrak 1, 1012LG Amsterdam' },
        { components: { ...NL, street: 'Damrak', houseNumber: '1A', postcode: '1012 LG' }, location: { lat: 52.3760877, lng: 4.8957921 }, providerConfidence: 0.83, precision: 'address', label: 'Damrak 1A, 1012LG Amsterdam' },
      ],
    },
    {
      provider: 'photon',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Damrak', houseNumber: '1', postcode: '1012 LG' }, location: { lat: 52.3762011, lng: 4.8957133 }, precision: 'address', label: 'Damrak 1, 1012 LG Amsterdam, Nederland' },
      ],
    },
    {
      provider: 'nominatim',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Damrak', houseNumber: '1', postcode: '1012 LG' }, location: { lat: 52.3761934, lng: 4.8957702 }, precision: 'address', label: '1, Damrak, Burgwallen-Nieuwe Zijde, Amsterdam, Noord-Holland, Nederland, 1012 LG, Nederland' },
      ],
    },
  ],
  'Prinsengracht 263, Amsterdm': [
    {
      provider: 'pdok',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Prinsengracht', houseNumber: '263', postcode: '1016 GV' }, location: { lat: 52.3752514, lng: 4.8839874 }, providerConfidence: 1, precision: 'address', label: 'Prinsengracht 263, 1016GV Amsterdam' },
        { components: { ...NL, street: 'Prinsengracht', houseNumber: '263-1', postcode: '1016 GV' }, location: { lat: 52.3752514, lng: 4.8839874 }, providerConfidence: 0.92, precision: 'address', label: 'Prinsengracht 263-1, 1016GV Amsterdam' },
      ],
    },
    {
      provider: 'photon',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Prinsengracht', houseNumber: '263', postcode: '1016 GV' }, location: { lat: 52.3751693, lng: 4.8840613 }, precision: 'address', label: 'Prinsengracht 263, 1016 GV Amsterdam, Nederland' },
      ],
    },
    {
      provider: 'nominatim',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Prinsengracht', houseNumber: '263', postcode: '1016 GV' }, location: { lat: 52.3752036, lng: 4.8840311 }, precision: 'address', label: 'Anne Frank Huis, 263, Prinsengracht, Grachtengordel-West, Amsterdam, Noord-Holland, Nederland, 1016 GV, Nederland' },
      ],
    },
  ],
  // Kalverstraat ends in the low 200s: every provider finds the street, none the number.
  'Kalverstraat 999, Amsterdam': [
    {
      provider: 'pdok',
      answered: true,
      candidates: [
        { components: { country: 'NL', state: 'Noord-Holland', city: 'Amsterdam', street: 'Kalverstraat' }, location: { lat: 52.3699527, lng: 4.8915472 }, providerConfidence: 1, precision: 'street', label: 'Kalverstraat, Amsterdam' },
        { components: { ...NL, street: 'Kalverstraat', houseNumber: '99', postcode: '1012 PE' }, location: { lat: 52.3697412, lng: 4.8916553 }, providerConfidence: 0.61, precision: 'address', label: 'Kalverstraat 99, 1012PE Amsterdam' },
      ],
    },
    {
      provider: 'photon',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Kalverstraat', postcode: '1012 NX' }, location: { lat: 52.3714804, lng: 4.8923101 }, precision: 'street', label: 'Kalverstraat, 1012 NX Amsterdam, Nederland' },
      ],
    },
    {
      provider: 'nominatim',
      answered: true,
      candidates: [
        { components: { ...NL, street: 'Kalverstraat' }, location: { lat: 52.3698762, lng: 4.8914983 }, precision: 'street', label: 'Kalverstraat, Burgwallen-Nieuwe Zijde, Amsterdam, Noord-Holland, Nederland, 1012 NX, Nederland' },
      ],
    },
  ],
};

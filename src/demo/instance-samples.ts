import type { LocalIndex, SampleAddress } from '../local-index/index.js';
import { formatLabel } from '../providers/label.js';
import type { ProviderSet } from '../providers/registry.js';
import { DEMO_SAMPLES, type DemoSample, findSample } from './samples.js';

/** One of the homepage's one-click samples. */
export interface HomeSample {
  /** What the button sends to `/demo/validate`. */
  query: string;
  /** What the sample shows off. */
  label: string;
  /** A written-down answer (samples.ts), not a lookup on this instance. */
  recorded: boolean;
}

/** What the homepage and the demo need of the samples: which ones, and how each is answered. */
export interface DemoSamples {
  list(): Promise<readonly HomeSample[]>;
  /** The recorded answer a text asks for, where the recorded samples are this instance's. */
  recorded(text: string): DemoSample | undefined;
  /** A sample drawn from this instance's data: looked up for real, never counted against the visitor. */
  isLive(text: string): Promise<boolean>;
}

const RECORDED: readonly HomeSample[] = DEMO_SAMPLES.map((s) => ({ query: s.query, label: s.label, recorded: true }));
const key = (text: string) => text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();

/** `Landstrasse` → `Landstrase`: the longest word of five letters or more loses its next-to-last letter. */
function typo(text: string): string | undefined {
  const word = text.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  if (word.length < 5) return undefined;
  return text.replace(word, word.slice(0, -2) + word.slice(-1));
}

/** Three samples about one real address of the index, each ending in its country code (the demo's way to name one). */
export function samplesOf(a: SampleAddress): HomeSample[] {
  const address = { street: a.street, houseNumber: a.houseNumber, postcode: a.postcode, city: a.city, country: a.country };
  const samples: HomeSample[] = [{ query: `${formatLabel(address)}, ${a.country}`, label: 'A valid address', recorded: false }];
  const street = typo(a.street);
  const city = street ? a.city : typo(a.city);
  if (street || city) {
    const query = formatLabel({ ...address, street: street ?? a.street, city: city ?? a.city, postcode: undefined });
    samples.push({ query: `${query}, ${a.country}`, label: 'A typo, no postcode', recorded: false });
  }
  const missing = formatLabel({ ...address, houseNumber: String(a.highestNumber + 100), postcode: undefined });
  samples.push({ query: `${missing}, ${a.country}`, label: 'A house number that does not exist', recorded: false });
  return samples;
}

/**
 * The samples this instance can answer. The recorded Amsterdam answers are what PDOK, Photon and
 * Nominatim said: shown only where one of them is active and covers NL. Otherwise three samples
 * drawn from the local index (its first covered country with an address that has a postcode and a
 * town), looked up live; drawn again when that country's data changes. Else none.
 */
export function instanceSamples(providers: ProviderSet, localIndex: LocalIndex | undefined): DemoSamples {
  const recordedApply = providers.active.some((id) => id !== 'local' && providers.get(id)?.covers('NL') === true);
  let drawn: { generation: string; samples: Promise<HomeSample[]> } | undefined;

  const live = (): Promise<HomeSample[]> => {
    if (!localIndex) return Promise.resolve([]);
    const countries = [...localIndex.covered()].sort();
    const generation = countries.map((c) => `${c}:${localIndex.dataGeneration(c)}`).join(' ');
    if (drawn?.generation !== generation) {
      const samples = (async () => {
        for (const country of countries) {
          const address = await localIndex.sampleAddress(country);
          if (address) return samplesOf(address);
        }
        return [];
      })();
      drawn = { generation, samples };
      // A failed read is tried again on the next page view, not kept.
      samples.catch(() => {
        if (drawn?.samples === samples) drawn = undefined;
      });
    }
    return drawn.samples;
  };

  return {
    list: async () => (recordedApply ? RECORDED : live()),
    recorded: (text) => (recordedApply ? findSample(text) : undefined),
    isLive: async (text) => !recordedApply && (await live()).some((s) => key(s.query) === key(text)),
  };
}

import { hasAddress } from './osm-address-forms.js';

type Tags = Record<string, string>;

/**
 * An entrance without a number of its own that names parts of an address (`entrance=staircase`
 * + `addr:flats=1-20`, as Russian and Ukrainian mappers tag each staircase): it takes the
 * address of the building it is on, at its own point, with its own units. (An entrance with a
 * number is an address node like any other.)
 */
export const isBareEntrance = (tags: Tags): boolean => Boolean(tags.entrance) && !hasAddress(tags) && Object.keys(tags).some((k) => k.startsWith('addr:'));

/** The building's units are the building's: an entrance lists its own. */
const UNIT_TAGS = new Set(['addr:unit', 'addr:flats', 'addr:door', 'addr:floor']);

/** An entrance's address: its building's (address way, the one of lowest id where several hold it), its own parts winning. */
export function entranceTags(building: Tags, own: Tags): Tags {
  const inherited = Object.entries(building).filter(([k]) => (k.startsWith('addr:') || k.startsWith('is_in')) && !UNIT_TAGS.has(k));
  const parts = Object.entries(own).filter(([k]) => k.startsWith('addr:') || k.startsWith('is_in'));
  return Object.fromEntries([...inherited, ...parts]);
}

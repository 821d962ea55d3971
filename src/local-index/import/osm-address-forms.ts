type Tags = Record<string, string>;

/**
 * Whether an OSM object's tags give an address number the importer reads: `addr:housenumber`,
 * or the Czech/Slovak `addr:conscriptionnumber` / `addr:streetnumber` alone.
 */
export const hasAddress = (tags: Tags): boolean => Boolean(tags['addr:housenumber'] || tags['addr:conscriptionnumber'] || tags['addr:streetnumber']);

/** One way to write an object's address: its number on a street (or a place standing for one). */
export interface AddressForm {
  /** Appended to the object's source id and row (`osm:n5#cn`); '' for the object's own form. */
  suffix: string;
  houseNumber: string | undefined;
  street: string | undefined;
}

/** Every suffix `addressForms` may give besides '': an update removes those an object no longer has. */
export const FORM_SUFFIXES = ['#sn', '#cn'] as const;

/**
 * The forms an address is written in. Its own: `addr:housenumber` on `addr:street`, or on
 * `addr:place` (a hamlet or square without street names). Czech and Slovak buildings carry a
 * conscription number (unique in the village part) and an orientation number (on the street),
 * written together as `123/4`; residents write either alone too, so each is a form of its own:
 * the street number on the street, the conscription number with the place it is unique in
 * (`addr:place`, else `addr:suburb`: the village part, as Czech imports tag it; else the town,
 * else the municipality the boundaries give). A form equal to an earlier one is left out.
 */
export function addressForms(tags: Tags, municipality: string | undefined): AddressForm[] {
  const cn = tags['addr:conscriptionnumber']?.trim();
  const sn = tags['addr:streetnumber']?.trim();
  const street = tags['addr:street'] || tags['addr:place'];
  const own = tags['addr:housenumber'] || (cn && sn ? `${cn}/${sn}` : cn || sn);
  const forms: AddressForm[] = [{ suffix: '', houseNumber: own, street }];
  if (sn && tags['addr:street']) forms.push({ suffix: '#sn', houseNumber: sn, street: tags['addr:street'] });
  if (cn) forms.push({ suffix: '#cn', houseNumber: cn, street: tags['addr:place'] || tags['addr:suburb'] || tags['addr:city'] || municipality });
  const distinct = forms.filter((f, i) => i === 0 || (f.street !== undefined && forms.findIndex((g) => g.houseNumber === f.houseNumber && g.street === f.street) === i));
  // A conscription number alone with a town but neither street nor place: only its `#cn` form has a street.
  return distinct[0]!.street === undefined && distinct.length > 1 ? distinct.slice(1) : distinct;
}

/**
 * OSM tags a postcode area that spans several codes with a `;` list (Photon sends Paris as
 * `75000;75001;…;75116`). A list names no single postcode, so it is not one: only a lone value
 * is kept as the candidate's postcode.
 */
export function singlePostcode(value: string | undefined): string | undefined {
  const parts = value?.split(';').map((part) => part.trim()).filter(Boolean) ?? [];
  return parts.length === 1 ? parts[0] : undefined;
}

/**
 * A candidate's `placeNames`: the names given, lowest level first, blanks and repeats
 * (case-insensitive) dropped; undefined when none is left, so the field stays absent.
 */
export function placeNames(...names: (string | undefined | null)[]): string[] | undefined {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = raw?.trim();
    if (!name || seen.has(name.toLocaleLowerCase())) continue;
    seen.add(name.toLocaleLowerCase());
    out.push(name);
  }
  return out.length > 0 ? out : undefined;
}

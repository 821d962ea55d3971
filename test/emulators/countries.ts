/**
 * Country names as the OSM-based providers print them: the local name by default,
 * translated when the caller asks for a language.
 */
const NAMES: Record<string, Record<string, string>> = {
  NL: { default: 'Nederland', en: 'Netherlands', de: 'Niederlande', fr: 'Pays-Bas', it: 'Paesi Bassi', nl: 'Nederland' },
  DE: { default: 'Deutschland', en: 'Germany', de: 'Deutschland', fr: 'Allemagne', it: 'Germania', nl: 'Duitsland' },
  FR: { default: 'France', en: 'France', de: 'Frankreich', fr: 'France', it: 'Francia', nl: 'Frankrijk' },
  GB: { default: 'United Kingdom', en: 'United Kingdom', de: 'Vereinigtes Königreich', fr: 'Royaume-Uni', it: 'Regno Unito', nl: 'Verenigd Koninkrijk' },
  LI: { default: 'Liechtenstein', en: 'Liechtenstein', de: 'Liechtenstein', fr: 'Liechtenstein', it: 'Liechtenstein', nl: 'Liechtenstein' },
  US: { default: 'United States', en: 'United States', de: 'Vereinigte Staaten', fr: 'États-Unis', it: 'Stati Uniti', nl: 'Verenigde Staten' },
};

/** `language` may be `en`, `en-GB` or an Accept-Language list; the first known one wins. */
export function countryName(code: string, language?: string): string {
  const names = NAMES[code.toUpperCase()];
  if (!names) return code.toUpperCase();
  for (const part of (language ?? '').split(',')) {
    const primary = part.trim().split(/[-_;]/)[0]?.toLowerCase() ?? '';
    const name = names[primary];
    if (name) return name;
  }
  return names.default ?? code.toUpperCase();
}

/** Every name a country goes by, for matching query words such as "Germany" or "Deutschland". */
export function countryAliases(code: string): string[] {
  const names = NAMES[code.toUpperCase()];
  const extra: Record<string, string[]> = { GB: ['uk', 'great britain', 'england'], US: ['usa', 'united states of america'] };
  return [code.toLowerCase(), ...Object.values(names ?? {}), ...(extra[code.toUpperCase()] ?? [])];
}

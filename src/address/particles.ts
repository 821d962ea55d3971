/**
 * Name particles per language: the articles and prepositions that join a street's type to its
 * name (`Rua da Liberdade`, `Avenida dos Aliados`, `Straße des 17. Juni`, `Rue de la République`,
 * `Calle de Alcalá`, `Via del Corso`, `Avinguda de Meritxell`). People drop, add and swap them
 * without meaning another street, so two names equal once their particles are gone are written
 * the same way (a `match`, like an abbreviation). Normalized forms (normalizeText: no
 * apostrophes, so `dell'Orso` is one word and keeps its particle).
 *
 * Not Dutch: `van`, `de`, `der` there belong to a family name (`Van Welderenstraat`), and not German
 * prepositions (`Am Markt` and `Markt` are two squares in many towns): only German articles.
 */
const PARTICLES: Record<string, ReadonlySet<string>> = {
  pt: new Set(['de', 'da', 'do', 'dos', 'das', 'd']),
  // Spanish and Catalan (`Carrer de la Unió`, Andorra and Catalonia: the Spanish street table knows `Carrer` too).
  es: new Set(['de', 'del', 'la', 'las', 'los', 'el', 'd', 'dels', 'les', 'els', 'l']),
  fr: new Set(['de', 'du', 'des', 'la', 'le', 'les', 'd', 'l']),
  it: new Set(['di', 'del', 'della', 'dello', 'dei', 'degli', 'delle', 'dell', 'da', 'dal', 'dalla', 'dai', 'd']),
  de: new Set(['des', 'der', 'dem', 'den', 'die', 'das']),
  en: new Set(['of', 'the']),
};

/** Whether a normalized token is a name particle in any of the languages. */
export function isParticle(token: string, langs: readonly string[]): boolean {
  return langs.some((lang) => PARTICLES[lang]?.has(token) ?? false);
}

/**
 * The normalized name without its particles; the name itself when that would leave no word of
 * three letters or more (`Rue de la Paix` keeps `paix`, but `De La` is all particles).
 */
export function withoutParticles(normalized: string, langs: readonly string[]): string {
  const words = normalized.split(' ').filter(Boolean);
  const kept = words.filter((w) => !isParticle(w, langs));
  return kept.some((w) => w.length >= 3) ? kept.join(' ') : normalized;
}

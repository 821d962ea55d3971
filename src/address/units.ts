/**
 * Placeholder of branch `units-read` (which owns this file and reads units in every language):
 * only `unitKey`, the comparison form the answer needs, so `engine/unit-verdict.ts` compiles
 * before that branch lands. The designator words are dropped, the identifier kept:
 * `Apt 3B` → `3b`, `Flat 3` → `3`, `Whg. 5` → `5`, `2º Esq.` → `2 esq`.
 */
const DESIGNATORS = new Set([
  'apt', 'apartment', 'appt', 'app', 'appartement', 'unit', 'suite', 'ste', 'flat', 'fl', 'whg', 'wohnung', 'top', 'no', 'nr', 'lgh', 'int', 'interno', 'door', 'tür',
]);

export function unitKey(unit: string): string {
  const words = unit
    .normalize('NFC')
    .toLowerCase()
    .replace(/[º°ª.,#]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const kept = words.filter((w, i) => !(DESIGNATORS.has(w) && words.slice(i + 1).some((rest) => /\d/.test(rest) || rest.length <= 2)));
  return (kept.length > 0 ? kept : words).join(' ');
}

/**
 * PLACEHOLDER for branch `units-read`, which owns this file (shared interface of issue 27): the
 * smallest reading that lets autocomplete strip and carry a unit typed after the house. The real
 * reader replaces it whole at merge; keep the signatures.
 */

// Designator, then one identifier (`Apt 3B`, `Whg. 5`, `Top 3`, `#12`).
const UNIT = /(?:^|[\s,]+)((?:apt|apartment|appt|app|unit|suite|ste|flat|whg|wohnung|top|#)\.?\s*[\p{N}][\p{L}\p{N}-]*|#[\p{L}\p{N}-]+)(?=$|[\s,])/iu;
// A recipient line (`c/o Müller`, `Attn: John Miller`) up to the next comma.
const RECIPIENT = /(?:^|,)\s*((?:c\/o|attn:?|z\.\s?hd\.?)\s[^,]*)/iu;

/** The unit's identifier normalized for comparison (`Apt 3B` → `3b`). */
export function unitKey(unit: string): string {
  return unit.replace(/^\s*(?:apt|apartment|appt|app|unit|suite|ste|flat|whg|wohnung|top|#)\.?\s*/iu, '').trim().toLowerCase();
}

/** Free text without its unit and recipient parts; the unit in display form, the rest unresolved in input order. */
export function stripUnitAndRecipient(text: string, _country?: string): { text: string; unit?: string; unresolved: string[] } {
  const unresolved: string[] = [];
  let rest = text;
  const recipient = RECIPIENT.exec(rest);
  if (recipient) {
    unresolved.push((recipient[1] as string).trim());
    rest = rest.replace(recipient[1] as string, '');
  }
  const unit = UNIT.exec(rest);
  if (unit) rest = rest.slice(0, unit.index) + rest.slice(unit.index + unit[0].length);
  rest = rest.replace(/\s*,(\s*,)+/g, ',').replace(/^[\s,]+|[\s,]+$/g, '').replace(/\s{2,}/g, ' ');
  const display = unit ? (unit[1] as string).trim().replace(/^\p{Ll}/u, (c) => c.toUpperCase()) : undefined;
  return { text: rest, ...(display ? { unit: display } : {}), unresolved };
}

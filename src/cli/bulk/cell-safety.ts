/**
 * CSV injection (OWASP "CSV Injection"): a spreadsheet runs a cell that begins with `=`, `+`, `-`,
 * `@`, tab or carriage return as a formula (`=HYPERLINK(…)`, `@SUM(…)`, DDE payloads). A list's
 * cells come from customers and from providers' answers (an OSM street name can begin with `=`),
 * so every output cell that begins with one of them gets OWASP's leading `'`, which spreadsheets
 * show as text and never run. `--raw-cells` writes them unchanged (docs/lists.md).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A number as we format one ourselves (`String(lat)`): data, never a formula. */
const OWN_NUMBER = /^-?\d+(?:\.\d+)?(?:e-?\d+)?$/;

export function neutralizeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The output's own coordinate cells (`lat`, `lng`) are written from numbers: `-3.5` there is a
 * number a spreadsheet reads as a number, not text it executes, so it stays as it is (a `'` would
 * turn every southern or western coordinate into text). Anything else in them is neutralized.
 */
export function neutralizeOwnNumber(value: string): string {
  return OWN_NUMBER.test(value) ? value : neutralizeCell(value);
}

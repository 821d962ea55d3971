/**
 * Text for the operator's terminal (issue 36). Stored and imported values are customers' and
 * files' text: an escape sequence in them would clear the screen, set the window title or write
 * the clipboard (OSC 52) instead of being shown. Every text printer of the CLI goes through here.
 */

/** C0 and C1 controls, DEL, bidirectional embeddings/overrides/isolates and the Unicode line separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\x1b` for a control up to U+00FF, `\u202e` beyond: visible, and what a developer would type. */
function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line for a terminal: every character that could act instead of print is shown escaped, line breaks included. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** JSON's own escapes for the characters JSON.stringify leaves raw (C1, DEL, bidi, U+2028/9): the same value, inert on a terminal. */
const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One JSON document on one line, safe to print (`--json`): JSON.stringify escapes C0 only. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(JSON_RAW, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

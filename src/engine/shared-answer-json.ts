/**
 * A cache hit's answer is decided once and shared by every hit of the same request (answer-memo.ts),
 * but its JSON was written again on each one: ~4 % of a validate hit's CPU. A response made of a
 * shared, never-mutated part plus a few fields of its own call is registered as such (validate's
 * `{ ...shared, cached, responseId }`, autocomplete's `{ suggestions: shared, cached, sessionToken }`);
 * `responseJson` then writes the shared part once per object and splices the call's fields in. The text is the one `JSON.stringify(response)` gives: the same
 * keys in the same order, which holds while no own field is also a key of the shared part (checked
 * when registered: such a response is written whole).
 */
interface SharedParts {
  shared: object;
  own: Record<string, unknown>;
  /** The key the shared part is the value of (`{ suggestions: shared, ...own }`); none: spread. */
  key?: string;
}

const parts = new WeakMap<object, SharedParts>();
const sharedTexts = new WeakMap<object, string>();

/** `{ ...shared, ...own }`, remembered as made of the two (see above). */
export function withSharedPart<S extends object, O extends Record<string, unknown>>(shared: S, own: O): S & O {
  const response = { ...shared, ...own };
  if (Object.keys(own).every((key) => !Object.hasOwn(shared, key))) parts.set(response, { shared, own });
  return response;
}

/** `{ [key]: shared, ...own }`, remembered as made of the two (an autocomplete's suggestions). */
export function withSharedField<K extends string, S extends object, O extends Record<string, unknown>>(key: K, shared: S, own: O): Record<K, S> & O {
  const response = { [key]: shared, ...own } as Record<K, S> & O;
  if (!Object.hasOwn(own, key)) parts.set(response, { shared, own, key });
  return response;
}

/** The JSON text of a response, its shared part written once per object. */
export function responseJson(response: object): string {
  const made = parts.get(response);
  if (!made) return JSON.stringify(response);
  let text = sharedTexts.get(made.shared);
  if (text === undefined) {
    text = JSON.stringify(made.shared);
    sharedTexts.set(made.shared, text);
  }
  const own = JSON.stringify(made.own);
  if (made.key !== undefined) return `{${JSON.stringify(made.key)}:${text}${own === '{}' ? '}' : `,${own.slice(1)}`}`;
  if (own === '{}') return text;
  // `{"a":1}` + `{"cached":true}` → `{"a":1,"cached":true}`; an empty shared part takes no comma.
  return `${text.slice(0, -1)}${text === '{}' ? '' : ','}${own.slice(1)}`;
}

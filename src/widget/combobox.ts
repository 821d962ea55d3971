import { checkAccess, fetchSuggestions } from './api-client.js';
import { discoverFields, fieldValues, fillFields, unmappedWarning, type FieldMap } from './field-fill.js';
import { ListboxView } from './listbox-view.js';
import { NearSource, parseTypes } from './near-source.js';
import { newSessionToken } from './session-token.js';
import { keepTyping } from './typed-extras.js';
import type { SelectDetail, StreetDetail, WidgetMessages, WidgetOptions, WidgetSuggestion } from './types.js';

export interface ResolvedOptions extends WidgetOptions {
  apiBase: string;
  minChars: number;
  debounceMs: number;
  messages: WidgetMessages;
}

// After a 429 the widget stays quiet for a while instead of hammering the limit.
const RATE_LIMIT_PAUSE_MS = 5000;

/** The WAI-ARIA 1.2 combobox (list autocomplete, manual selection) on one text input. */
export class AddressCombobox extends EventTarget {
  private readonly view: ListboxView;
  private readonly fields: FieldMap;
  private readonly near: NearSource;
  private items: WidgetSuggestion[] = [];
  private active = -1;
  private session: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inflight: AbortController | null = null;
  private pausedUntil = 0;
  private access: Promise<boolean> | null = null;
  private warned = false;
  private readonly off: (() => void)[] = [];

  constructor(
    readonly input: HTMLInputElement,
    private readonly opts: ResolvedOptions,
  ) {
    super();
    this.view = new ListboxView(input, opts.messages.listLabel, opts.theme ?? 'auto');
    this.fields = discoverFields(input, opts.fields, opts.autoFields !== false);
    const unmapped = unmappedWarning(input, opts.fields, this.fields, opts.autoFields !== false);
    if (unmapped) console.warn(unmapped);
    this.near = new NearSource(input, opts.near, opts.geolocate === true);
    const attrs: Record<string, string> = {
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': this.view.list.id,
    };
    for (const [k, v] of Object.entries(attrs)) input.setAttribute(k, v);
    if (!input.hasAttribute('autocomplete')) input.setAttribute('autocomplete', 'off');
    this.on(input, 'focus', () => this.onFocus());
    this.on(input, 'blur', () => this.onBlur());
    this.on(input, 'input', () => this.onInput());
    this.on(input, 'keydown', (e) => this.onKey(e as KeyboardEvent));
    // mousedown would move focus away from the input; the click that follows selects.
    this.on(this.view.list, 'mousedown', (e) => e.preventDefault());
    this.on(this.view.list, 'click', (e) => this.pick(this.indexOf(e)));
    this.on(this.view.list, 'mousemove', (e) => {
      const i = this.indexOf(e);
      if (i >= 0 && i !== this.active) this.setActive(i);
    });
  }

  destroy(): void {
    this.reset();
    this.view.hint();
    this.off.forEach((f) => f());
    this.view.remove();
    for (const a of ['role', 'aria-autocomplete', 'aria-expanded', 'aria-controls', 'aria-activedescendant']) this.input.removeAttribute(a);
  }

  private on(target: EventTarget, type: string, fn: (e: Event) => void): void {
    target.addEventListener(type, fn);
    this.off.push(() => target.removeEventListener(type, fn));
  }

  private indexOf(e: Event): number {
    const li = (e.target as Element).closest('[role=option]');
    return li instanceof HTMLElement ? Number(li.dataset.index) : -1;
  }

  private onFocus(): void {
    this.session = newSessionToken();
    this.near.prepare();
    this.access ??= checkAccess(this.opts.apiBase, this.opts.token).then((verdict) => {
      // Ask again on the next focus: the allowlist may change, the service may be back.
      if (verdict !== true) this.access = null;
      if (verdict === false && !this.warned) {
        console.warn(`[address widget] ${location.origin} is not on this publishable token's origin allowlist; autocomplete is off.`);
        this.warned = true;
      }
      return verdict === true;
    });
  }

  private onBlur(): void {
    // Leaving the field makes any pending lookup pointless: never spend a credit on it.
    this.cancelPending();
    this.close();
    this.session = null;
  }

  private onInput(): void {
    this.setActive(-1);
    this.cancelPending();
    if (this.input.value.trim().length < this.opts.minChars) return this.reset();
    this.view.busy(true);
    this.timer = setTimeout(() => void this.load(), this.opts.debounceMs);
  }

  private async load(): Promise<void> {
    if (!(await this.access) || Date.now() < this.pausedUntil) return this.view.busy(false);
    const query = this.input.value.trim();
    this.inflight?.abort();
    const ctrl = (this.inflight = new AbortController());
    this.session ??= newSessionToken();
    const { country = this.countryHint(), language, limit } = this.opts;
    const near = this.near.current();
    const types = this.types();
    const body = { query, country, language, limit, sessionToken: this.session, ...(near ? { near } : {}), ...(types ? { types } : {}) };
    const result = await fetchSuggestions(this.opts.apiBase, this.opts.token, body, ctrl.signal);
    // A newer keystroke owns the list now; also ignore answers that arrive after blur.
    if (ctrl !== this.inflight || !this.focused()) return;
    this.inflight = null;
    this.view.busy(false);
    if (result.kind === 'rate-limited') this.pausedUntil = Date.now() + RATE_LIMIT_PAUSE_MS;
    if (result.kind !== 'ok') return this.close();
    this.items = result.suggestions;
    this.active = -1;
    this.view.render(this.items);
    this.view.announce(this.items.length ? this.opts.messages.found(this.items.length) : this.opts.messages.none);
    if (this.items.length) this.open();
    else this.close();
  }

  /** The kinds asked for: the input's `data-addressd-types`, else the option; undefined for all. */
  private types(): WidgetOptions['types'] {
    return parseTypes(this.input.dataset.addressdTypes) ?? this.opts.types;
  }

  private wants(type: NonNullable<WidgetOptions['types']>[number]): boolean {
    return this.types()?.includes(type) ?? true;
  }

  private focused(): boolean {
    // The root node, not document: inside a shadow root document.activeElement is the host.
    return (this.input.getRootNode() as Document | ShadowRoot).activeElement === this.input;
  }

  /** A country already chosen in the form biases the search. */
  private countryHint(): string | undefined {
    const v = this.fields.get('country')?.value;
    return v && /^[a-z]{2}$/i.test(v) ? v.toUpperCase() : undefined;
  }

  private onKey(e: KeyboardEvent): void {
    const expanded = !this.view.popup.hidden;
    const n = this.items.length;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!n) return;
        e.preventDefault();
        if (!expanded) this.open();
        if (e.altKey) return e.key === 'ArrowUp' ? this.close() : undefined;
        const step = e.key === 'ArrowDown' ? 1 : -1;
        // Wraps: past the last option to the first and back; from "none" Up lands on the last.
        this.setActive(this.active < 0 ? (step > 0 ? 0 : n - 1) : (this.active + step + n) % n);
        return;
      }
      case 'Enter':
        if (expanded && this.active >= 0) {
          e.preventDefault();
          this.pick(this.active);
        }
        return;
      case 'Escape':
        // Also drop a pending answer, so the list the user just dismissed does not pop up again.
        this.cancelPending();
        if (expanded) this.close();
        else if (this.input.value) {
          this.input.value = '';
          this.input.dispatchEvent(new Event('input', { bubbles: true }));
        } else return;
        e.preventDefault();
        return;
      case 'Tab':
        // Leaves the field without choosing anything.
        return this.close();
      case 'Home':
      case 'End':
      case 'ArrowLeft':
      case 'ArrowRight':
        // Caret keys edit the text; the option highlight gives way.
        return this.setActive(-1);
    }
  }

  private setActive(i: number): void {
    this.active = i;
    this.view.setActive(i);
    if (i >= 0) this.input.setAttribute('aria-activedescendant', this.view.optionId(i));
    else this.input.removeAttribute('aria-activedescendant');
  }

  private open(): void {
    this.view.show();
    this.input.setAttribute('aria-expanded', 'true');
  }

  private close(): void {
    this.setActive(-1);
    this.view.hide();
    this.input.setAttribute('aria-expanded', 'false');
  }

  /** The text changed (or the list was dismissed): a request for the old text is stale, abort it now. */
  private cancelPending(): void {
    this.view.busy(false);
    clearTimeout(this.timer);
    this.inflight?.abort();
    this.inflight = null;
  }

  /** Stops pending work and forgets the suggestions (too short, cleared, or chosen). */
  private reset(): void {
    this.cancelPending();
    this.items = [];
    this.close();
  }

  private pick(i: number): void {
    const s = this.items[i];
    if (!s) return;
    const kept = keepTyping(this.input.value, s.label, s.address);
    // A form that asks for no houses (`types` without `address`: a delivery-area check) takes a street as it is.
    if (s.address.street && !s.address.houseNumber && !kept.houseNumber && this.wants('address')) return this.pickStreet(s);
    delete this.input.dataset.addressdNeeds;
    this.view.hint();
    const values = fieldValues(s, kept, this.fields);
    fillFields(this.fields, values, this.input);
    const own = [...this.fields].find(([, el]) => el === this.input)?.[0];
    const value = (own && values[own]) || kept.value;
    this.input.value = value;
    this.input.setSelectionRange(value.length, value.length);
    this.reset();
    this.session = null; // a selection ends the session; further typing starts a new one
    const { unit } = values;
    const action = s.action && !unit && this.askUnit() ? s.action : undefined;
    const detail: SelectDetail = { id: s.id, label: s.label, provider: s.provider, address: s.address, houseNumber: kept.houseNumber, extra: kept.extra, value, unit, action };
    this.input.dispatchEvent(new Event('change', { bubbles: true }));
    this.input.dispatchEvent(new CustomEvent('select', { detail, bubbles: true }));
    this.dispatchEvent(new CustomEvent('select', { detail }));
  }

  /**
   * The house has several units and none was given: a visible prompt, named as the description of
   * the unit field (focused, to type it right away) or, without one, of the input itself. Not when
   * the unit field was filled in already: false.
   */
  private askUnit(): boolean {
    const field = this.fields.get('unit') ?? this.fields.get('line2');
    if (field?.value) return false;
    const target = field ?? this.input;
    this.input.dataset.addressdNeeds = 'unit';
    // Clears only its own marker: a street picked meanwhile asks for the house number with the same attribute.
    this.view.hint(target, this.opts.messages.unitNeeded, () => {
      if (this.input.dataset.addressdNeeds === 'unit') delete this.input.dataset.addressdNeeds;
    });
    if (field) field.focus();
    else this.view.announce(this.opts.messages.unitNeeded);
    return true;
  }

  /**
   * A street without a number is no address yet: the input shows the street with the caret where
   * the number goes (`Landstrasse |, 9495 Triesen`), so the next keystrokes drill down to its
   * house numbers within the same session; no field is filled and no `select` fires. The input
   * is marked (`data-addressd-needs="houseNumber"`) and a `street` event says what is missing.
   */
  private pickStreet(s: WidgetSuggestion): void {
    const street = s.address.street as string;
    const at = s.label.toLowerCase().indexOf(street.toLowerCase());
    const end = at >= 0 ? at + street.length : -1;
    const value = end >= 0 ? `${s.label.slice(0, end)} ${s.label.slice(end).replace(/^ /, '')}` : `${street} `;
    const caret = end >= 0 ? end + 1 : value.length;
    this.input.value = value;
    this.input.setSelectionRange(caret, caret);
    this.cancelPending();
    this.items = [];
    this.close();
    this.input.dataset.addressdNeeds = 'houseNumber';
    this.view.announce(this.opts.messages.numberNeeded);
    const detail: StreetDetail = { id: s.id, label: s.label, provider: s.provider, address: s.address, missing: ['houseNumber'] };
    this.input.dispatchEvent(new CustomEvent('street', { detail, bubbles: true }));
    this.dispatchEvent(new CustomEvent('street', { detail }));
  }

  /**
   * Fills the form from a suggestion found another way (the "use my location" button), as
   * choosing it from the list does: fields, input text, `change` and `select`.
   */
  choose(s: WidgetSuggestion): void {
    this.input.value = '';
    this.items = [s];
    this.pick(0);
  }
}

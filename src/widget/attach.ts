import { AddressCombobox, type ResolvedOptions } from './combobox.js';
import { attachLocateButton } from './locate-button.js';
import type { WidgetMessages, WidgetOptions } from './types.js';

export type { AddressCombobox } from './combobox.js';

const MESSAGES: WidgetMessages = {
  found: (n) => `${n} address${n === 1 ? '' : 'es'} found. Use the up and down arrow keys to choose.`,
  none: 'No addresses found.',
  listLabel: 'Address suggestions',
  numberNeeded: 'Street chosen. Type the house number.',
  unitNeeded: 'This address has several flats or units: please add yours.',
  locate: 'Use my location',
  locating: 'Finding your address…',
  locateDenied: 'Your location is not available. Please type your address.',
  locateNone: 'No address found at your location. Please type it.',
  locateFailed: 'Your address could not be looked up. Please type it.',
};

const attached = new WeakMap<HTMLInputElement, AddressCombobox>();

function ensureStylesheet(href: string): void {
  if (document.querySelector('link[data-svc-ac]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.svcAc = '';
  document.head.appendChild(link);
}

export type Attach = (target: string | HTMLInputElement, options: WidgetOptions) => AddressCombobox;

/**
 * Binds `attach` to the URL the widget was loaded from: that origin is the default API base and
 * the hosted stylesheet sits next to the script.
 */
export function createAttach(scriptUrl: string, stylesheetFile: string): Attach {
  return (target, options) => {
    const input = typeof target === 'string' ? document.querySelector(target) : target;
    if (!(input instanceof HTMLInputElement)) throw new TypeError(`address widget: ${String(target)} is not an <input>`);
    if (!/^svc_pk_(live|test)_/.test(options.token ?? '')) {
      // A secret key in a web page is readable by everyone: refuse it outright.
      throw new TypeError('address widget: needs a publishable token (svc_pk_live_… or svc_pk_test_…), never a secret API key');
    }
    const existing = attached.get(input);
    if (existing) return existing;
    const resolved: ResolvedOptions = {
      ...options,
      apiBase: (options.apiBase ?? new URL(scriptUrl).origin).replace(/\/+$/, ''),
      minChars: options.minChars ?? 3,
      debounceMs: options.debounceMs ?? 200,
      messages: { ...MESSAGES, ...options.messages },
    };
    if (options.stylesheet !== false) {
      ensureStylesheet(typeof options.stylesheet === 'string' ? options.stylesheet : new URL(stylesheetFile, scriptUrl).href);
    }
    const widget = new AddressCombobox(input, resolved);
    attached.set(input, widget);
    if (options.locate) attachLocateButton(widget, resolved);
    return widget;
  };
}

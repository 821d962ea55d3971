import type { AddressCombobox, ResolvedOptions } from './combobox.js';
import { browserPosition } from './geolocation.js';
import { fetchNearest } from './reverse-client.js';

/** How far from the reported position an address may be: a phone's fix in a town is off by tens of metres. */
const LOCATE_RADIUS_M = 100;

/**
 * The opt-in "use my location" button (option `locate`, attribute `data-locate`), placed after the
 * input: it asks the browser for the position (only on this click: the permission prompt follows a
 * gesture of the customer's), looks up the nearest address (`/v1/widget/reverse`) and fills the
 * form as choosing that suggestion does. What went wrong (declined, nothing near) is said in a
 * polite status beside the button; the form is left as it was.
 */
export function attachLocateButton(widget: AddressCombobox, opts: ResolvedOptions): HTMLButtonElement {
  const { input } = widget;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'svc-ac-locate';
  button.textContent = opts.messages.locate;
  const status = document.createElement('span');
  status.className = 'svc-ac-locate-status';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  (input.closest('label') ?? input).after(button, status);
  const say = (text: string) => {
    status.textContent = text;
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    say(opts.messages.locating);
    try {
      const at = await browserPosition();
      if (!at) return say(opts.messages.locateDenied);
      const found = await fetchNearest(opts.apiBase, opts.token, at, LOCATE_RADIUS_M);
      if (!found) return say(opts.messages.locateFailed);
      const [nearest] = found;
      if (!nearest) return say(opts.messages.locateNone);
      say('');
      widget.choose(nearest);
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  });
  return button;
}

import { createAttach, type Attach } from './attach.js';
import { parseNear } from './geolocation.js';
import { parseTypes } from './near-source.js';
import type { FieldName, FieldTarget, WidgetOptions } from './types.js';

declare global {
  interface Window {
    AddressWidget?: { attach: Attach };
  }
}

// currentScript is only set while this classic script first runs, so read it now.
const script = document.currentScript as HTMLScriptElement | null;
const attach = createAttach(script?.src || location.href, __WIDGET_CSS__);
window.AddressWidget = { attach };

/** `<script src=".../widget.js" data-token="svc_pk_live_…" data-input="#address" defer>`: the one-line form. */
function fromDataset(d: DOMStringMap): WidgetOptions {
  const num = (v: string | undefined) => (v ? Number(v) : undefined);
  let fields: Partial<Record<FieldName, FieldTarget>> | undefined;
  if (d.fields) {
    try {
      fields = JSON.parse(d.fields) as Partial<Record<FieldName, FieldTarget>>;
    } catch {
      console.warn('[address widget] data-fields is not valid JSON; using autocomplete attributes only');
    }
  }
  return {
    token: d.token ?? '',
    apiBase: d.apiBase,
    country: d.country,
    language: d.language,
    limit: num(d.limit),
    minChars: num(d.minChars),
    debounceMs: num(d.debounceMs),
    autoFields: d.autoFields !== 'false',
    theme: d.theme === 'light' || d.theme === 'dark' ? d.theme : 'auto',
    stylesheet: d.stylesheet === 'false' ? false : d.stylesheet || true,
    fields,
    near: parseNear(d.near),
    geolocate: d.geolocate !== undefined && d.geolocate !== 'false',
    types: parseTypes(d.types),
    locate: d.locate === 'true' || d.locate === '',
  };
}

function autoAttach(): void {
  const d = script?.dataset;
  if (!d?.input) return;
  const options = fromDataset(d);
  document.querySelectorAll<HTMLInputElement>(d.input).forEach((input) => {
    try {
      attach(input, options);
    } catch (err) {
      console.warn(String(err));
    }
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', autoAttach);
else autoAttach();

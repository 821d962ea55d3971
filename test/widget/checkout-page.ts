/** A small checkout form the widget attaches to, written the way a shop would. */
export interface CheckoutPageOptions {
  /** Full URL of widget.js / widget.mjs. */
  scriptSrc: string;
  token: string;
  /** Extra `data-*` attributes for the script tag (one-line form), e.g. `{ 'data-theme': 'dark' }`. */
  data?: Record<string, string>;
  /** Attach with `import { attach }` from widget.mjs instead of the script tag; the object is passed as options. */
  module?: Record<string, unknown>;
  colorScheme?: 'light' | 'dark';
  /** No field mapping: one street line (`address-line1`) found by its `autocomplete` attribute alone. */
  autofillOnly?: boolean;
  /** The form's field for the flat: `address-line2` (default), one marked `data-addressd-field="unit"`, or none. */
  unitField?: 'line2' | 'unit' | 'none';
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function checkoutPage(o: CheckoutPageOptions): string {
  const mapping: Record<string, string> = o.autofillOnly ? {} : { 'data-fields': '{"street":"#street","houseNumber":"#house-number"}' };
  const data = { 'data-token': o.token, 'data-input': '#address', ...mapping, ...o.data };
  const streetFields = o.autofillOnly
    ? `<label for="line1">Street and number</label><input id="line1" name="line1" autocomplete="address-line1">`
    : `<label for="street">Street</label><input id="street" name="street">
  <label for="house-number">House number</label><input id="house-number" name="houseNumber">`;
  const unitField = {
    line2: `<label for="line2">Apartment, floor</label><input id="line2" name="line2" autocomplete="address-line2">`,
    unit: `<label for="unit">Flat or unit</label><input id="unit" name="unit" data-addressd-field="unit">`,
    none: '',
  }[o.unitField ?? 'line2'];
  const loader = o.module
    ? `<script type="module">
        import { attach } from ${JSON.stringify(o.scriptSrc)};
        window.widget = attach('#address', ${JSON.stringify({ token: o.token, ...o.module })});
      </script>`
    : `<script src="${attr(o.scriptSrc)}" ${Object.entries(data).map(([k, v]) => `${k}="${attr(v)}"`).join(' ')} defer></script>`;
  const dark = o.colorScheme === 'dark';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
<style>
  body { font: 16px/1.4 system-ui, sans-serif; margin: 2rem; background: ${dark ? '#0d1117' : '#f6f8fa'}; color: ${dark ? '#e6edf3' : '#1b1f24'}; color-scheme: ${dark ? 'dark' : 'light'}; }
  form { position: relative; max-width: 26rem; }
  label { display: block; margin-top: .75rem; }
  input, select { font: inherit; padding: .45rem .6rem; width: 100%; box-sizing: border-box; }
</style></head>
<body><main>
<h1>Checkout</h1>
<form id="checkout" action="/submitted">
  <label for="address">Find your address</label>
  <input id="address" name="address" type="text">
  ${streetFields}
  ${unitField}
  <label for="postcode">Postcode</label><input id="postcode" name="postcode" autocomplete="postal-code">
  <label for="city">City</label><input id="city" name="city" autocomplete="address-level2">
  <label for="country">Country</label>
  <select id="country" name="country" autocomplete="country">
    <option value="">Choose…</option><option value="NL">Netherlands</option><option value="DE">Germany</option><option value="US">United States</option>
  </select>
  <p><button type="submit">Pay</button></p>
</form>
<p id="after">after the form</p>
</main>
<script>
  window.submitted = 0;
  window.selected = [];
  document.getElementById('checkout').addEventListener('submit', (e) => { e.preventDefault(); window.submitted++; });
  document.getElementById('address').addEventListener('select', (e) => { if (e.detail) window.selected.push(e.detail); });
</script>
${loader}
</body></html>`;
}

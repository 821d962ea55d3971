const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The test page of `addressd widget-demo`: a checkout form as a shop would write it (with a field for
 * the flat, where the widget asks for one when the house has several: `add_unit`), the hosted widget
 * attached by its one-line script tag with the demo token, and the chosen address and next step shown.
 */
export function widgetDemoPage(o: { token: string; origin: string; country?: string }): string {
  const data: Record<string, string> = {
    'data-token': o.token,
    'data-input': '#address',
    'data-fields': '{"street":"#street","houseNumber":"#house-number"}',
    ...(o.country ? { 'data-country': o.country } : {}),
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget demo · addressd</title><link rel="icon" href="data:,">
<style>
  body { font: 16px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; padding: 0 1rem; color: #1b1f24; }
  form { position: relative; }
  label { display: block; margin-top: .75rem; font-weight: 600; }
  input { font: inherit; padding: .45rem .6rem; width: 100%; box-sizing: border-box; }
  code, pre { background: #f6f8fa; border-radius: 4px; }
  /* Long lines (the snippet's script tag) wrap inside the box instead of running past its right edge. */
  pre { padding: .75rem; min-height: 2rem; white-space: pre-wrap; overflow-wrap: anywhere; }
</style></head>
<body><main>
<h1>Address widget demo</h1>
<p>Type an address: suggestions come from this service through <code>/v1/widget/autocomplete</code> with a test
publishable token that allows only <code>${attr(o.origin)}</code>. Choosing one fills the fields below. Where the
data lists several flats for the house and none was typed, the widget asks for yours in the <em>Flat or unit</em>
field (the suggestion's <code>action: "add_unit"</code>); a flat typed with the address (<code>Whg. 5</code>,
<code>Apt 3B</code>, <code>340/3</code>) goes there by itself.</p>
<form id="checkout" action="#">
  <label for="address">Find your address</label>
  <input id="address" name="address" type="text" placeholder="e.g. Damrak 1">
  <label for="street">Street</label><input id="street" name="street">
  <label for="house-number">House number</label><input id="house-number" name="houseNumber">
  <label for="unit">Flat or unit</label><input id="unit" name="unit" data-addressd-field="unit">
  <label for="postcode">Postcode</label><input id="postcode" name="postcode" autocomplete="postal-code">
  <label for="city">City</label><input id="city" name="city" autocomplete="address-level2">
  <label for="country">Country</label><input id="country" name="country" autocomplete="country">
</form>
<h2>Selected</h2>
<pre id="selected" aria-live="polite"></pre>
<p id="next" aria-live="polite"></p>
<h2>On your own page</h2>
<p>The unit field is found by <code>data-addressd-field="unit"</code> (or <code>autocomplete="address-line2"</code>).</p>
<pre>${attr(`<input id="address" autocomplete="off">\n<script src="${o.origin}/widget/v1/widget.js" ${Object.entries(data).map(([k, v]) => `${k}='${v}'`).join(' ')} defer></script>`)}</pre>
</main>
<script src="/widget/v1/widget.js" ${Object.entries(data).map(([k, v]) => `${k}="${attr(v)}"`).join(' ')} defer></script>
<script>
  document.getElementById('address').addEventListener('select', function (e) {
    if (!e.detail) return;
    document.getElementById('selected').textContent = JSON.stringify(e.detail.address, null, 2);
    document.getElementById('next').textContent = e.detail.action === 'add_unit'
      ? 'Next: add_unit. This house has several flats or units; the widget asks for yours in the unit field.'
      : e.detail.unit ? 'Flat or unit: ' + e.detail.unit : '';
  });
</script>
</body></html>
`;
}

/** Set by scripts/build-widget.ts: the content-hashed stylesheet name, e.g. `widget.1a2b3c4d.css`. */
declare const __WIDGET_CSS__: string;

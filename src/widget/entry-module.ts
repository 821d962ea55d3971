import { createAttach } from './attach.js';

export type { AddressCombobox } from './combobox.js';
export type { FieldName, SelectDetail, WidgetOptions, WidgetSuggestion } from './types.js';

/** `import { attach } from 'https://svc.example/widget/v1/widget.mjs'; attach('#address', { token })` */
export const attach = createAttach(import.meta.url, __WIDGET_CSS__);

import type { WidgetSuggestion } from './types.js';

let counter = 0;

/**
 * Writes `label[from, to)` into `parent`, the parts the typed text matched (the service's `matches`,
 * UTF-16 ranges of the label) as `<mark>` elements: DOM nodes and text only, a label is never parsed as HTML.
 */
function marked(parent: HTMLElement, label: string, from: number, to: number, matches: WidgetSuggestion['matches']): void {
  let at = from;
  for (const m of [...matches].sort((a, b) => a.offset - b.offset)) {
    const start = Math.max(m.offset, at);
    const end = Math.min(m.offset + m.length, to);
    if (end <= start) continue;
    if (start > at) parent.append(label.slice(at, start));
    parent.appendChild(document.createElement('mark')).textContent = label.slice(start, end);
    at = end;
  }
  if (at < to) parent.append(label.slice(at, to));
}

/** The popup (listbox of options) and the polite live region, placed right after the input. */
export class ListboxView {
  readonly popup = document.createElement('div');
  readonly list = document.createElement('ul');
  readonly status = document.createElement('div');
  readonly id = `svc-ac-${++counter}`;

  constructor(
    private readonly input: HTMLInputElement,
    label: string,
    theme: string,
  ) {
    this.popup.className = 'svc-ac-popup';
    this.popup.hidden = true;
    if (theme !== 'auto') this.popup.dataset.theme = theme;
    this.list.id = `${this.id}-list`;
    this.list.className = 'svc-ac-list';
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', label);
    this.status.className = 'svc-ac-status';
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    this.status.setAttribute('aria-atomic', 'true');
    this.popup.appendChild(this.list);
    // Outside a wrapping <label>: the options and the live region must not join the input's name.
    (input.closest('label') ?? input).after(this.popup, this.status);
  }

  optionId(i: number): string {
    return `${this.id}-opt-${i}`;
  }

  render(items: WidgetSuggestion[]): void {
    this.list.replaceChildren(
      ...items.map((s, i) => {
        const li = document.createElement('li');
        li.id = this.optionId(i);
        li.className = 'svc-ac-option';
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.dataset.index = String(i);
        // The main line runs to the end of the street line: a unit the country writes first (`Whg. 5, Marienplatz 8`) stays with it.
        const street = s.address.street ? s.label.indexOf(s.address.street) : -1;
        const cut = s.label.indexOf(', ', Math.max(street, 0));
        const main = li.appendChild(document.createElement('span'));
        main.className = 'svc-ac-main';
        marked(main, s.label, 0, cut < 0 ? s.label.length : cut, s.matches);
        if (cut >= 0) {
          const sub = li.appendChild(document.createElement('span'));
          sub.className = 'svc-ac-sub';
          // The visual split drops the comma; keep it for screen readers' reading of the label.
          marked(sub, s.label, cut + 2, s.label.length, s.matches);
          main.appendChild(document.createElement('span')).className = 'svc-ac-sep';
          (main.lastChild as HTMLElement).textContent = ', ';
        }
        return li;
      }),
    );
  }

  /**
   * Marks the list as being updated (WAI-ARIA `aria-busy`) from the keystroke that asks for new
   * options until their answer is shown or given up: assistive technology, and a page or a test
   * that reads the options, know the ones shown may not be for the text in the field yet.
   */
  busy(on: boolean): void {
    if (on) this.list.setAttribute('aria-busy', 'true');
    else this.list.removeAttribute('aria-busy');
  }

  setActive(index: number): void {
    this.list.querySelectorAll('[role=option]').forEach((el, i) => {
      el.setAttribute('aria-selected', String(i === index));
      if (i === index) el.scrollIntoView({ block: 'nearest' });
    });
  }

  show(): void {
    // Same offsetParent as the input (siblings), so no scroll/resize tracking is needed.
    const { input, popup } = this;
    popup.style.top = `${input.offsetTop + input.offsetHeight}px`;
    popup.style.left = `${input.offsetLeft}px`;
    popup.style.minWidth = `${input.offsetWidth}px`;
    popup.hidden = false;
  }

  hide(): void {
    this.popup.hidden = true;
  }

  announce(text: string): void {
    // Alternate a trailing no-break space so an identical count is announced again.
    this.status.textContent = this.status.textContent === text ? `${text}\u00a0` : text;
  }

  private shown?: () => void;

  /**
   * Shows `text` right after `target` as its accessible description, until the user types there;
   * without arguments, takes down the one shown.
   */
  hint(target?: HTMLElement, text?: string, done?: () => void): void {
    this.shown?.();
    if (!target) return;
    const p = document.createElement('p');
    p.className = 'svc-ac-hint';
    p.id = `${this.id}-hint`;
    p.textContent = text ?? '';
    (target.closest('label') ?? target).after(p);
    const described = target.getAttribute('aria-describedby');
    target.setAttribute('aria-describedby', described ? `${described} ${p.id}` : p.id);
    const clear = () => {
      p.remove();
      target.removeEventListener('input', clear);
      if (described) target.setAttribute('aria-describedby', described);
      else target.removeAttribute('aria-describedby');
      this.shown = undefined;
      done?.();
    };
    target.addEventListener('input', clear);
    this.shown = clear;
  }

  remove(): void {
    this.popup.remove();
    this.status.remove();
  }
}

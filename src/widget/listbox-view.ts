import type { WidgetSuggestion } from './types.js';

let counter = 0;

/** Adds `<mark>` around the words the user typed, built from text nodes (labels are never parsed as HTML). */
function highlight(parent: HTMLElement, text: string, words: string[]): void {
  const re = words.length ? new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi') : null;
  const parts = re ? text.split(re) : [text];
  parts.forEach((part, i) => {
    if (!part) return;
    if (i % 2) parent.appendChild(document.createElement('mark')).textContent = part;
    else parent.appendChild(document.createTextNode(part));
  });
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

  render(items: WidgetSuggestion[], query: string): void {
    const words = query.split(/[\s,]+/).filter((w) => w.length > 1);
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
        highlight(main, cut < 0 ? s.label : s.label.slice(0, cut), words);
        if (cut >= 0) {
          const sub = li.appendChild(document.createElement('span'));
          sub.className = 'svc-ac-sub';
          // The visual split drops the comma; keep it for screen readers' reading of the label.
          sub.textContent = s.label.slice(cut + 2);
          main.appendChild(document.createElement('span')).className = 'svc-ac-sep';
          (main.lastChild as HTMLElement).textContent = ', ';
        }
        return li;
      }),
    );
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

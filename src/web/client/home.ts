import { validateDemo } from './demo-api.js';
import { h } from './dom.js';
import { renderResult } from './render-result.js';
import { renderLimit, renderMessage, renderRecordedLabel } from './render-state.js';

/** The homepage demo box: the form, the sample buttons and the result area (server-rendered markup). */
function start(): void {
  const form = document.querySelector<HTMLFormElement>('#demo-form');
  const input = document.querySelector<HTMLInputElement>('#demo-query');
  const output = document.querySelector<HTMLElement>('#demo-result');
  const submit = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!form || !input || !output || !submit) return;
  let inFlight: AbortController | undefined;

  async function run(query: string): Promise<void> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    output!.setAttribute('aria-busy', 'true');
    submit!.disabled = true;
    output!.replaceChildren(h('p', { class: 'muted' }, 'Checking…'));
    const result = await validateDemo(query, controller.signal);
    if (controller.signal.aborted) return;
    submit!.disabled = false;
    output!.removeAttribute('aria-busy');
    switch (result.kind) {
      case 'answer':
        output!.replaceChildren(...(result.recorded ? [renderRecordedLabel()] : []), renderResult(result.response, query));
        break;
      case 'limited':
        output!.replaceChildren(renderLimit(result.error));
        break;
      case 'rejected':
        output!.replaceChildren(renderMessage('Type an address first', 'Enter an address of 1 to 200 characters, or pick one of the samples.', 'rejected'));
        input!.focus();
        break;
      case 'failed':
        output!.replaceChildren(renderMessage('The demo is not available right now', 'Please try again in a moment.', 'failed'));
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(input.value.trim());
  });
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-sample]')) {
    button.addEventListener('click', () => {
      input.value = button.dataset.sample ?? '';
      void run(input.value);
    });
  }
  form.classList.add('ready');
}

start();

/**
 * The console's only script, for comfort: the pages work without it. Copy buttons (shown only
 * when the clipboard is there), a confirmation before revoking, and a live preview form that
 * never submits. No inline handlers: everything is wired here (strict CSP).
 */
function announce(text: string): void {
  let region = document.getElementById('console-live');
  if (!region) {
    region = document.createElement('p');
    region.id = 'console-live';
    region.className = 'visually-hidden';
    region.setAttribute('role', 'status');
    document.body.append(region);
  }
  region.textContent = '';
  // A fresh text node after clearing makes screen readers speak it again.
  window.setTimeout(() => (region!.textContent = text), 50);
}

function wireCopyButtons(): void {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      const source = document.getElementById(button.dataset.copy ?? '');
      if (!source) return;
      navigator.clipboard.writeText(source.textContent ?? '').then(
        () => announce('Copied to the clipboard'),
        () => announce('Could not copy: select the text and copy it yourself'),
      );
    });
  }
}

function wireConfirmations(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm ?? 'Are you sure?')) event.preventDefault();
    });
  }
}

function wirePreview(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form.preview')) {
    form.addEventListener('submit', (event) => event.preventDefault());
  }
}

wireCopyButtons();
wireConfirmations();
wirePreview();

// Progressive enhancement only: a "Copy" button next to every element marked data-copy-source. Without
// this script (or without the Clipboard API) the text stays selectable and nothing else changes.
/* global document, navigator */
'use strict';
for (const target of document.querySelectorAll('[data-copy-source]')) {
  if (!navigator.clipboard) break;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary';
  button.textContent = target.getAttribute('data-copy-label') || 'Copy';
  const status = document.createElement('span');
  status.className = 'copied';
  status.setAttribute('role', 'status');
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(target.textContent || '').then(
      () => (status.textContent = 'Copied'),
      () => (status.textContent = 'Copy failed: select the text instead'),
    );
  });
  target.after(button, status);
}
// "Try it": a pasted key or token (data-keep-in-tab) is kept in this tab's sessionStorage only, so the
// next call need not paste it again; it never leaves the browser except with the call itself, and the
// storage ends with the tab. Without this script the field is simply empty on each page.
/* global sessionStorage */
for (const input of document.querySelectorAll('input[data-keep-in-tab]')) {
  const slot = `toolgate-try-${input.name}`;
  try {
    const kept = sessionStorage.getItem(slot);
    if (kept && !input.value) input.value = kept;
    input.form.addEventListener('submit', () => {
      if (input.value) sessionStorage.setItem(slot, input.value);
      else sessionStorage.removeItem(slot);
    });
  } catch {
    // Storage unavailable (privacy settings): paste each time.
  }
}

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

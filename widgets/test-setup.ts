import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no HTMLDialogElement.showModal/close. It also caches computed styles and clears the
// cache only when the document itself changes, not a shadow root: after `open` changes, a dialog
// inside an element would still count as display: none for role queries. Touch the document.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  const restyle = (dialog: HTMLDialogElement) => {
    const root = dialog.ownerDocument.documentElement;
    root.setAttribute('data-sgx-restyle', '');
    root.removeAttribute('data-sgx-restyle');
  };
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
    restyle(this);
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    restyle(this);
    this.dispatchEvent(new Event('close'));
  };
}

// React Testing Library cleans up after each test only when globals are on; do it here.
afterEach(() => {
  cleanup();
  localStorage.clear();
});

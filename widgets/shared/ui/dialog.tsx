import { useEffect, useId, useRef, type ReactNode } from 'react';
import { token } from './theme.ts';
import { keepFocusInside } from './focus-trap.ts';
import { DialogToastRegion } from './toasts.tsx';
import { useMessages } from '../widget-host/widget-context.ts';
import { closeButtonCss } from './styles.ts';
import { bidi } from './bidi-text.tsx';

/**
 * A modal dialog on the native <dialog> (showModal): the top layer, focus kept inside, Escape to
 * close, all inside the element's shadow root (a portal to <body> would lose the styles). Focus
 * returns to the element that had it when the dialog opened.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  part = 'dialog',
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  part?: string;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messages = useMessages();
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = deepActiveElement();
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      part={part}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        if (open) onClose();
        const target = returnFocusTo.current;
        returnFocusTo.current = null;
        if (target?.isConnected) target.focus();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose(); // a click on the backdrop
      }}
      onKeyDown={(event) => {
        if (ref.current) keepFocusInside(ref.current, event);
      }}
      css={{
        border: 'none',
        padding: 0,
        borderRadius: token('--sgx-radius'),
        inlineSize: wide ? 'min(860px, calc(100vw - 24px))' : 'min(520px, calc(100vw - 24px))',
        maxBlockSize: 'calc(100vh - 24px)',
        color: token('--sgx-color-text'),
        background: token('--sgx-color-surface'),
        fontFamily: token('--sgx-font'),
        boxShadow: '0 25px 50px rgb(15 23 42 / 0.3)',
        '&::backdrop': { background: 'rgb(15 23 42 / 0.55)' },
      }}
    >
      <div css={{ padding: '20px 22px 22px' }}>
        <div
          css={{
            display: 'flex',
            alignItems: 'start',
            justifyContent: 'space-between',
            gap: '12px',
            marginBlockEnd: '12px',
          }}
        >
          <h2 id={titleId} css={{ margin: 0, fontSize: '1.25em', lineHeight: 1.3 }}>
            {bidi(title)}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label={messages.common.close}
            css={{ ...closeButtonCss, fontSize: '22px', padding: '4px 8px' }}
          >
            ×
          </button>
        </div>
        {children}
      </div>
      {open && <DialogToastRegion />}
    </dialog>
  );
}

/** The focused element, looking inside shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

import { useEffect, useId, useRef, useState } from 'react';
import { token } from './theme.ts';
import { useMessages } from '../widget-host/widget-context.ts';
import { bidi } from './bidi-text.tsx';

// docs/product.md §9: tooltips open after 700 ms; within 300 ms of another closing they open at once.
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
let lastClosedAt = 0;

/** An info icon that explains a clinical field: on hover (after the delay) and on keyboard focus. */
export function InfoTip({ label, text }: { label: string; text: string }) {
  const messages = useMessages();
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = (immediately: boolean) => {
    clearTimeout(timer.current);
    const skip = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    if (immediately || skip) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now();
      return false;
    });
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <span css={{ position: 'relative', display: 'inline-flex', verticalAlign: 'middle' }}>
      <button
        type="button"
        aria-label={messages.common.moreInformation(label)}
        aria-describedby={open ? id : undefined}
        onPointerEnter={() => show(false)}
        onPointerLeave={hide}
        onFocus={() => show(true)}
        onBlur={hide}
        onKeyDown={(event) => {
          if (event.key === 'Escape') hide();
        }}
        css={{
          all: 'unset',
          cursor: 'help',
          inlineSize: '20px',
          blockSize: '20px',
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          fontSize: '12px',
          fontWeight: 700,
          color: token('--sgx-color-primary'),
          border: `1.5px solid ${token('--sgx-color-primary')}`,
          marginInlineStart: '6px',
          '&:focus-visible': { outline: `3px solid ${token('--sgx-color-focus')}`, outlineOffset: '2px' },
        }}
      >
        i
      </button>
      {open && (
        <span
          role="tooltip"
          id={id}
          part="tooltip"
          css={{
            position: 'absolute',
            insetBlockEnd: 'calc(100% + 8px)',
            insetInlineStart: '-8px',
            zIndex: 10,
            inlineSize: 'max-content',
            maxInlineSize: 'min(280px, 80vw)',
            padding: '8px 10px',
            borderRadius: '8px',
            background: '#0f172a',
            color: '#ffffff',
            fontSize: '0.85em',
            fontWeight: 400,
            lineHeight: 1.4,
            boxShadow: '0 6px 16px rgb(15 23 42 / 0.25)',
          }}
        >
          {bidi(text)}
        </span>
      )}
    </span>
  );
}

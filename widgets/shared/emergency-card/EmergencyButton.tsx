import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import type { SelectedPatient } from '../session-state.ts';
import { useToast } from '../toasts.tsx';
import { useMessages, useWidgetHost } from '../widget-context.ts';
import { loadEmergencyCard, preloadEmergencyCardWhenIdle } from './load.ts';

/** The attribute that shows the button: `<sgx-dose-calculator emergency>`, `<sgx-bradycardia-advisor emergency>`. */
export const EMERGENCY_ATTRIBUTE = 'emergency';

/** An attribute's value as on/off: present (even empty) is on, absent or "false" is off. */
export const attributeIsOn = (value: string | null | undefined): boolean =>
  value != null && value.trim().toLowerCase() !== 'false';

/**
 * The element's own attribute, read from the element (r2wc ignores an attribute without a value, so
 * `<sgx-… emergency>` never reaches the props), and followed when it changes. Undefined outside an element.
 */
function useHostAttribute(anchor: { current: Element | null }, name: string): string | null | undefined {
  const [value, setValue] = useState<string | null | undefined>(undefined);
  useLayoutEffect(() => {
    const root = anchor.current?.getRootNode();
    const host = root instanceof ShadowRoot ? root.host : null;
    if (!host) return;
    const read = () => setValue(host.getAttribute(name));
    read();
    const observer = new MutationObserver(read);
    observer.observe(host, { attributes: true, attributeFilter: [name] });
    return () => observer.disconnect();
  }, [anchor, name]);
  return value;
}

/**
 * The red "Emergency" button in an element's header, shown when the element has the `emergency` attribute
 * (or, outside an element, the `emergency` prop is on). It opens the full-screen emergency card
 * (EmergencyCard.tsx), whose code loads on the first click or once the page is idle.
 */
export function EmergencyButton({
  emergency,
  patient,
}: {
  /** The element's `emergency` property ("", "true": on; absent, "false": off). */
  emergency?: string | boolean;
  /** The chosen patient: the card takes its weight and age group. */
  patient: SelectedPatient | null;
}) {
  const anchor = useRef<HTMLSpanElement>(null);
  const fromHost = useHostAttribute(anchor, EMERGENCY_ATTRIBUTE);
  const fromProp = typeof emergency === 'boolean' ? emergency : attributeIsOn(emergency);
  const on = fromHost === undefined ? fromProp : attributeIsOn(fromHost);
  const { lang } = useWidgetHost();
  const t = useMessages().emergency;
  const toast = useToast();

  useEffect(() => (on ? preloadEmergencyCardWhenIdle() : undefined), [on]);

  const open = (event: MouseEvent<HTMLButtonElement>) => {
    const opener = event.currentTarget;
    loadEmergencyCard().then(
      (card) => card.openEmergencyCard({ lang, opener, patient }),
      () => toast({ title: t.loadFailed, variant: 'destructive' }),
    );
  };

  return (
    <span ref={anchor} css={{ display: 'contents' }}>
      {on && (
        <button
          type="button"
          part="emergency-button"
          aria-haspopup="dialog"
          onClick={open}
          css={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: '6px',
            minBlockSize: '44px',
            paddingInline: '14px',
            border: '2px solid #7f1d1d',
            borderRadius: '10px',
            background: '#b91c1c',
            color: '#ffffff',
            font: 'inherit',
            fontWeight: 800,
            cursor: 'pointer',
            '&:hover': { background: '#991b1b' },
            '&:focus-visible': { outline: '3px solid #2563eb', outlineOffset: '2px' },
          }}
        >
          <span aria-hidden="true">⚠</span>
          {t.button}
        </button>
      )}
    </span>
  );
}

import { useEffect, type MouseEvent } from 'react';
import type { EmergencyAgeGroup } from '../../../clinical/index.ts';
import type { SelectedPatient } from '../session/session-state.ts';
import { useToast } from '../ui/toasts.tsx';
import { useMessages, useWidgetHost } from '../widget-host/widget-context.ts';
import { loadEmergencyCard, preloadEmergencyCardWhenIdle } from './load.ts';

/** An attribute's value as on/off: present (even empty) is on, absent or "false" is off. */
export const attributeIsOn = (value: string | null | undefined): boolean =>
  value != null && value.trim().toLowerCase() !== 'false';

/**
 * The red "Emergency" button in an element's header, shown when the element has the `emergency` attribute
 * (`<sgx-dose-calculator emergency>`, `<sgx-bradycardia-advisor emergency>`; defineWidget passes a valueless
 * attribute as "" and a removed one as undefined) or, outside an element, the `emergency` prop is on. It
 * opens the full-screen emergency card (EmergencyCard.tsx), whose code loads on the first click or once the
 * page is idle.
 */
export function EmergencyButton({
  emergency,
  patient,
  current,
}: {
  /** The element's `emergency` property ("", "true": on; absent, "false": off). */
  emergency?: string | boolean;
  /** The chosen patient: the card takes its weight and age group. */
  patient: SelectedPatient | null;
  /**
   * The element's own weight (as typed) and age group at the moment of the click: the card starts with them
   * where the chosen patient has none (or no patient is chosen).
   */
  current?: { weight?: string; ageGroup?: EmergencyAgeGroup };
}) {
  const on = typeof emergency === 'boolean' ? emergency : attributeIsOn(emergency);
  const { lang } = useWidgetHost();
  const t = useMessages().emergency;
  const toast = useToast();

  useEffect(() => (on ? preloadEmergencyCardWhenIdle() : undefined), [on]);

  const open = (event: MouseEvent<HTMLButtonElement>) => {
    const opener = event.currentTarget;
    loadEmergencyCard().then(
      (card) => card.openEmergencyCard({ lang, opener, patient, weight: current?.weight, ageGroup: current?.ageGroup }),
      () => toast({ title: (host) => host.messages.emergency.loadFailed, variant: 'destructive' }),
    );
  };

  if (!on) return null;
  return (
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
  );
}

import { useEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { type WidgetLang } from '../element/element-lang.ts';
import { existingSessionStore, isAuthenticated } from '../session/session-state.ts';
import { WidgetRoot } from '../element/widget-root.tsx';
import type { EmergencyAgeGroup } from '../../../clinical/index.ts';
import { EmergencyCard, type EmergencyPatient } from './EmergencyCard.tsx';

/** Marks the page-level holder of the card (a direct child of <body>). */
export const EMERGENCY_CARD_HOLDER_ATTRIBUTE = 'data-sgx-emergency-card';

export interface OpenEmergencyCardOptions {
  /** The language of the element or page that opens it. */
  lang: WidgetLang;
  /** The button that opened it: focus returns there when the card closes. */
  opener?: HTMLElement | null;
  /**
   * The chosen patient. Undefined: the page's session is asked, only if its store is already on the page (the
   * card never loads the session or account code); null: no patient.
   */
  patient?: EmergencyPatient | null;
  /** The opening element's weight as typed and its age group: used where the patient has none. */
  weight?: string;
  ageGroup?: EmergencyAgeGroup;
}

let shown: { holder: HTMLElement; root: Root } | null = null;

/**
 * Opens the emergency card over the whole page, from an element's button or the host page's navigation. It
 * lives in its own holder at the end of <body> (its own shadow root and styles, like an element), so that it
 * covers the page and prints alone, whatever the element it was opened from. One card at a time: opening it
 * again shows the new one. Closing it removes the holder and returns focus to `opener`.
 */
export function openEmergencyCard({ lang, opener = null, patient, weight, ageGroup }: OpenEmergencyCardOptions): void {
  closeEmergencyCard();
  const holder = document.createElement('div');
  holder.setAttribute(EMERGENCY_CARD_HOLDER_ATTRIBUTE, '');
  holder.setAttribute('lang', lang);
  // A page with a strict CSP gave its nonce to the element that opens the card: the card's styles need it too.
  const nonce = hostOf(opener)?.nonce;
  if (nonce) holder.nonce = nonce;
  document.body.append(holder);
  const container = holder.attachShadow({ mode: 'open' });
  const root = createRoot(container);
  shown = { holder, root };
  const chosen = patient === undefined ? sessionPatient() : patient;
  root.render(
    <WidgetRoot container={container}>
      <OpenCard
        patient={chosen}
        weight={weight}
        ageGroup={ageGroup}
        opener={opener}
        onClosed={() => closeEmergencyCard(holder)}
      />
    </WidgetRoot>,
  );
}

/** Removes the card (the one given, or whichever is shown). */
export function closeEmergencyCard(holder?: HTMLElement): void {
  if (!shown || (holder && shown.holder !== holder)) return;
  const { holder: current, root } = shown;
  shown = null;
  root.unmount();
  current.remove();
}

function OpenCard({
  patient,
  weight,
  ageGroup,
  opener,
  onClosed,
}: {
  patient: EmergencyPatient | null;
  weight?: string;
  ageGroup?: EmergencyAgeGroup;
  opener: HTMLElement | null;
  onClosed: () => void;
}) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    if (open) return;
    // After the dialog has closed and focus has gone back to the opener, not inside this root's own update.
    const timer = setTimeout(onClosed, 0);
    return () => clearTimeout(timer);
  }, [open, onClosed]);
  return (
    <EmergencyCard
      open={open}
      onClose={() => setOpen(false)}
      patient={patient}
      initialWeight={weight?.trim()}
      initialAgeGroup={ageGroup}
      returnFocusTo={opener}
    />
  );
}

/** The patient chosen in the account area, if the session store is already on the page and signed in. */
function sessionPatient(): EmergencyPatient | null {
  const state = existingSessionStore()?.getState();
  return state && isAuthenticated(state) ? state.selectedPatient : null;
}

function hostOf(element: HTMLElement | null): HTMLElement | null {
  const root = element?.getRootNode();
  return root instanceof ShadowRoot && root.host instanceof HTMLElement ? root.host : null;
}

import { useEffect, useState, type ComponentProps } from 'react';
import { loadOnce } from '../loading/load-once.ts';
import { useSession } from '../session/use-session.ts';

// The EHR parts of an element (the patient banner, the weight's note, "Send to EHR") and their texts load only in
// a session opened from the EHR: every other page keeps the elements' first download as it was
// (e2e/size-budgets.e2e.ts).

const loadParts = loadOnce(() => import('./parts.ts'), import.meta.url);
type Parts = Awaited<ReturnType<typeof loadParts>>;

function useEhrParts(): Parts | null {
  const opened = useSession((state) => state.ehr !== null);
  const [parts, setParts] = useState<Parts | null>(null);
  useEffect(() => {
    if (!opened || parts) return;
    let live = true;
    loadParts().then(
      (module) => live && setParts(() => module),
      () => undefined, // offline: the parts stay away; the tools work without them
    );
    return () => {
      live = false;
    };
  }, [opened, parts]);
  return opened ? parts : null;
}

export function LazyEhrPatientBanner(props: ComponentProps<Parts['EhrPatientBanner']>) {
  const parts = useEhrParts();
  return parts ? <parts.EhrPatientBanner {...props} /> : null;
}

export function LazySendToEhrButton(props: ComponentProps<Parts['SendToEhrButton']>) {
  const parts = useEhrParts();
  return parts ? <parts.SendToEhrButton {...props} /> : null;
}

export function LazyEhrWeightNote(props: ComponentProps<Parts['EhrWeightNote']>) {
  const parts = useEhrParts();
  return parts ? <parts.EhrWeightNote {...props} /> : null;
}

import { useState } from 'react';
import type { SmartSendResult } from '../../../contracts/smart.ts';
import { userMessage } from '../api/api-error.ts';
import { bidiText } from '../ui/bidi-text.tsx';
import { loadOnce } from '../loading/load-once.ts';
import { token } from '../ui/theme.ts';
import { Button } from '../ui/ui.tsx';
import type { NotesRequest } from '../notes/use-export-notes.ts';
import { useSession } from '../session/use-session.ts';
import { useEhrServerText, useEhrTexts, type EhrTexts } from './texts.ts';

const loadSend = loadOnce(() => import('./send.ts'), import.meta.url);

type SendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; result: SmartSendResult }
  | { kind: 'failed'; message: string };

/** What the EHR did: filed the document (and the draft order) now, or found them filed by an earlier try. */
function sentText(t: EhrTexts, { documentReference: document, medicationRequest: order }: SmartSendResult): string {
  if (document.alreadyFiled)
    return order?.alreadyFiled ? t.alreadyFiledWithOrder(document.id, order.id) : t.alreadyFiled(document.id);
  return order ? t.sentWithOrder(document.id, order.id) : t.sent(document.id);
}

/**
 * "Send to EHR" beside "Export PDF to notes", shown only in a session opened from the EHR and for a result
 * saved for the patient the EHR chose; says the id the EHR gave the document (and the draft order), or why not.
 */
export function SendToEhrButton({
  apiBase,
  request,
}: {
  apiBase: string;
  /** The notes of the result; null while it is not saved to the history yet. */
  request: (NotesRequest & { calculationId: string }) | null;
}) {
  const ehr = useSession((state) => state.ehr);
  const clinicianName = useSession((state) => state.user?.name ?? null);
  const t = useEhrTexts();
  const serverText = useEhrServerText();
  const [state, setState] = useState<SendState>({ kind: 'idle' });
  if (!ehr || !request || request.patientId !== ehr.patient.id) return null;
  const send = async () => {
    setState({ kind: 'sending' });
    try {
      const { sendToEhr } = await loadSend();
      setState({ kind: 'sent', result: await sendToEhr(apiBase, request, clinicianName) });
    } catch (error) {
      setState({ kind: 'failed', message: userMessage(error) });
    }
  };
  return (
    <>
      <Button
        variant="secondary"
        busy={state.kind === 'sending'}
        disabled={state.kind === 'sending' || state.kind === 'sent'}
        onClick={() => void send()}
        data-testid="send-to-ehr"
      >
        {state.kind === 'sending' ? t.sending : t.send}
      </Button>
      <p role="status" part="ehr-status" css={{ margin: 0, flexBasis: '100%', fontSize: '0.9em' }}>
        {state.kind === 'sent' && bidiText(sentText(t, state.result))}
      </p>
      {state.kind === 'failed' && (
        <p role="alert" css={{ margin: 0, flexBasis: '100%', color: token('--sgx-color-danger') }}>
          <strong>{t.sendFailed}: </strong>
          {bidiText(serverText(state.message))}
        </p>
      )}
    </>
  );
}

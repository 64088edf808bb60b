import { useState } from 'react';
import type { Patient } from './account-api.ts';
import { accountApi } from './account-api-loader.ts';
import { isAuthenticated } from './session-state.ts';
import { useLatest } from '../api/use-latest.ts';
import { useSession } from './use-session.ts';

const none = async (): Promise<Patient[]> => [];

/**
 * The signed-in clinician's patients for a picker (none in Quick Use or on failure); reloaded when the session
 * changes. Null until the first answer: a list that names each entry's patient waits for it rather than
 * calling a linked entry unlinked.
 */
export function usePatients(apiBase: string): Patient[] | null {
  const signedIn = useSession(isAuthenticated, apiBase);
  const token = useSession((state) => state.token);
  const [patients, setPatients] = useState<Patient[] | null>(null);
  useLatest(signedIn ? () => accountApi().then((api) => api.listPatients(apiBase)) : none, [signedIn, token, apiBase], {
    onResult: setPatients,
    onError: () => setPatients([]), // the tools still work without a patient
  });
  return patients;
}

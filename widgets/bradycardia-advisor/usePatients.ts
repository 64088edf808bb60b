import { useEffect, useState } from 'react';
import { apiRequest } from '../shared/api-client.ts';
import { isAuthenticated } from '../shared/session-store.ts';
import { useSession } from '../shared/use-session.ts';

export interface PatientSummary {
  id: string;
  displayName: string;
  mrn: string | null;
  weightKg: number | null;
  yearOfBirth: number | null;
}

/** The signed-in clinician's patients (none in Quick Use); reloaded when the session changes. */
export function usePatients(apiBase: string): PatientSummary[] {
  const signedIn = useSession(isAuthenticated, apiBase);
  const token = useSession((state) => state.token);
  const [patients, setPatients] = useState<PatientSummary[]>([]);
  useEffect(() => {
    if (!signedIn) {
      setPatients([]);
      return;
    }
    let current = true;
    apiRequest<{ patients: PatientSummary[] }>(apiBase, '/api/patients')
      .then((body) => {
        if (current) setPatients(body.patients);
      })
      .catch(() => {
        if (current) setPatients([]); // the advisor still works without a patient
      });
    return () => {
      current = false;
    };
  }, [signedIn, token, apiBase]);
  return patients;
}

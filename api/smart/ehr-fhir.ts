import type { Bundle, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { CODES } from '../../fhir/codes.ts';

/**
 * The EHR's FHIR server as this app uses it, with the launch's access token (never sent anywhere else): read
 * the launch patient and their latest body weight, and create a resource (POST) answering the id the EHR gave.
 */
export class EhrFhirError extends Error {
  override name = 'EhrFhirError';
  constructor(
    /** `refused`: the EHR answered 4xx/5xx; `unreachable`: no answer. */
    readonly kind: 'refused' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

const FHIR_JSON = 'application/fhir+json';
const TIMEOUT_MS = 15_000;

export interface EhrFhir {
  readPatient(id: string): Promise<Patient>;
  latestBodyWeight(patientId: string): Promise<Observation | undefined>;
  create<T extends Resource>(resource: T): Promise<{ id: string }>;
}

export function ehrFhir(base: string, accessToken: string, fetcher: typeof fetch = fetch): EhrFhir {
  const call = async (path: string, init: RequestInit = {}) => {
    let response: Response;
    try {
      response = await fetcher(`${base}/${path}`, {
        ...init,
        headers: { Accept: FHIR_JSON, Authorization: `Bearer ${accessToken}`, ...init.headers },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new EhrFhirError('unreachable', `${init.method ?? 'GET'} ${path}: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, 300);
      throw new EhrFhirError('refused', `${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
    }
    return response;
  };
  return {
    async readPatient(id) {
      const patient = (await (await call(`Patient/${encodeURIComponent(id)}`)).json()) as Patient;
      if (patient.resourceType !== 'Patient') throw new EhrFhirError('refused', `Patient/${id} is not a Patient`);
      return patient;
    },
    async latestBodyWeight(patientId) {
      const query = new URLSearchParams({
        patient: patientId,
        code: `${CODES.bodyWeight.system}|${CODES.bodyWeight.code}`,
        _sort: '-date',
        _count: '1',
      });
      const bundle = (await (await call(`Observation?${query}`)).json()) as Bundle<Observation>;
      // The newest, whatever order the server kept (not every EHR honours _sort).
      const found = (bundle.entry ?? [])
        .map((entry) => entry.resource)
        .filter((resource): resource is Observation => resource?.resourceType === 'Observation');
      const when = (observation: Observation) => observation.effectiveDateTime ?? observation.issued ?? '';
      return found.sort((a, b) => when(b).localeCompare(when(a)))[0];
    },
    async create(resource) {
      const response = await call(resource.resourceType, {
        method: 'POST',
        headers: { 'Content-Type': FHIR_JSON, Prefer: 'return=representation' },
        body: JSON.stringify(resource),
      });
      // The id from the body (return=representation), else from Location: [base]/Type/id/_history/vid.
      const body = (await response.json().catch(() => undefined)) as Resource | undefined;
      const location = response.headers.get('location') ?? response.headers.get('content-location') ?? '';
      const fromLocation = new RegExp(`${resource.resourceType}/([A-Za-z0-9.-]{1,64})`).exec(location)?.[1];
      const id = body?.id ?? fromLocation;
      if (!id) throw new EhrFhirError('refused', `POST ${resource.resourceType}: the EHR gave no id`);
      return { id };
    },
  };
}

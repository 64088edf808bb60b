import type { Bundle, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { CODES } from '../../fhir/codes.ts';
import { EhrRedirectError, errorAnswerSummary, isRedirectRefusal } from './ehr-http.ts';

/**
 * The EHR's FHIR server as this app uses it, with the launch's access token (never sent anywhere else): read
 * the launch patient, their body weights and the clinician's own resource (`fhirUser`), and create a resource
 * (POST, conditionally with If-None-Exist) answering the id the EHR gave and whether it was new. A redirect is not
 * followed, and an error's message holds the EHR's status and OperationOutcome codes, never its text (ehr-http.ts):
 * it goes to the server log.
 */
export class EhrFhirError extends Error {
  override name = 'EhrFhirError';
  constructor(
    /**
     * `refused`: the EHR answered an error status; `unreachable`: the request never reached it (no connection),
     * so nothing was written; `timeout`: no answer in time, or the connection broke after the request went out,
     * so a write may have been stored.
     */
    readonly kind: 'refused' | 'unreachable' | 'timeout',
    message: string,
    /** The EHR's HTTP status, for `refused`. */
    readonly status?: number,
  ) {
    super(message);
  }
}

const FHIR_JSON = 'application/fhir+json';
/** How many body weights one search asks for: enough to find the newest where `_sort` is not honoured. */
export const WEIGHT_SEARCH_COUNT = 10;
/** Errors of a connection that was never made: the request did not leave, nothing can have been written. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface Created {
  id: string;
  /** False when a conditional create found the resource there already (the EHR answered 200, not 201). */
  created: boolean;
}

export interface EhrFhir {
  readPatient(id: string): Promise<Patient>;
  /** The patient's body weights (LOINC 29463-7), newest first as the EHR sorts them (callers sort again). */
  bodyWeights(patientId: string): Promise<Observation[]>;
  /** A resource by a reference relative to the FHIR base (`Practitioner/123`). */
  read(reference: string): Promise<Resource>;
  create<T extends Resource>(resource: T, options?: { ifNoneExist?: string }): Promise<Created>;
}

/** Why a fetch failed, for EhrFhirError: `unreachable` only when no connection was ever made. */
function failureKind(error: unknown): 'unreachable' | 'timeout' {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } }).cause;
  const codes = [cause?.code, ...(cause?.errors ?? []).map((inner) => inner.code)];
  return codes.some((code) => typeof code === 'string' && NOT_CONNECTED.has(code)) ? 'unreachable' : 'timeout';
}

export function ehrFhir(base: string, accessToken: string, fetcher: typeof fetch, timeoutMs: number): EhrFhir {
  const call = async (path: string, init: RequestInit = {}) => {
    let response: Response;
    const what = `${init.method ?? 'GET'} ${path.replace(/\?.*/, '')}`;
    try {
      response = await fetcher(`${base}/${path}`, {
        ...init,
        headers: { Accept: FHIR_JSON, Authorization: `Bearer ${accessToken}`, ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      // A redirect is the EHR's answer, not followed: nothing was written where it pointed.
      if (error instanceof EhrRedirectError || isRedirectRefusal(error))
        throw new EhrFhirError('refused', `${what}: ${new EhrRedirectError().message}`);
      throw new EhrFhirError(failureKind(error), `${what}: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const summary = await errorAnswerSummary(response);
      throw new EhrFhirError('refused', `${what}: ${response.status} (${summary})`, response.status);
    }
    return response;
  };
  const json = async (response: Response, what: string) => {
    try {
      return (await response.json()) as Resource;
    } catch {
      // Not the parser's message: it quotes the answer.
      throw new EhrFhirError('refused', `${what}: the answer is not JSON`);
    }
  };
  return {
    async readPatient(id) {
      const patient = await json(await call(`Patient/${encodeURIComponent(id)}`), `Patient/${id}`);
      if (patient.resourceType !== 'Patient') throw new EhrFhirError('refused', `Patient/${id} is not a Patient`);
      return patient;
    },
    async bodyWeights(patientId) {
      const query = new URLSearchParams({
        patient: patientId,
        code: `${CODES.bodyWeight.system}|${CODES.bodyWeight.code}`,
        _sort: '-date',
        _count: String(WEIGHT_SEARCH_COUNT),
      });
      const bundle = (await json(await call(`Observation?${query}`), 'Observation search')) as Bundle;
      if (bundle.resourceType !== 'Bundle') throw new EhrFhirError('refused', 'Observation search: not a Bundle');
      return (bundle.entry ?? [])
        .map((entry) => entry.resource)
        .filter((resource): resource is Observation => resource?.resourceType === 'Observation');
    },
    async read(reference) {
      const [type, id] = reference.split('/');
      const resource = await json(await call(`${type}/${encodeURIComponent(id ?? '')}`), reference);
      if (resource.resourceType !== type) throw new EhrFhirError('refused', `${reference} is not a ${type}`);
      return resource;
    },
    async create(resource, options = {}) {
      const response = await call(resource.resourceType, {
        method: 'POST',
        headers: {
          'Content-Type': FHIR_JSON,
          Prefer: 'return=representation',
          ...(options.ifNoneExist ? { 'If-None-Exist': options.ifNoneExist } : {}),
        },
        body: JSON.stringify(resource),
      });
      // The id from the body (return=representation), else from Location: [base]/Type/id/_history/vid.
      const body = (await response.json().catch(() => undefined)) as Resource | undefined;
      const location = response.headers.get('location') ?? response.headers.get('content-location') ?? '';
      const fromLocation = new RegExp(`${resource.resourceType}/([A-Za-z0-9.-]{1,64})`).exec(location)?.[1];
      const id = (body?.resourceType === resource.resourceType ? body.id : undefined) ?? fromLocation;
      if (!id) throw new EhrFhirError('refused', `POST ${resource.resourceType}: the EHR gave no id`);
      // A conditional create that matched answers 200 OK with the resource that was there (FHIR R4 section 3.1.0.8.1).
      return { id, created: response.status === 201 || !options.ifNoneExist };
    },
  };
}

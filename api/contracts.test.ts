import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authResponseSchema, userSchema } from '../contracts/auth.ts';
import { errorBodySchema } from '../contracts/errors.ts';
import {
  exportListSchema,
  exportRecordSchema,
  historyEntrySchema,
  historyPageSchema,
  patientListSchema,
  patientSchema,
} from '../contracts/records.ts';
import { advisorRunSchema, recordedRunSchema } from '../contracts/tools.ts';
import { startTestApi, type TestApi } from './test-support/test-api.ts';

// The browser parses every answer with contracts/; the real server's answers must pass.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const parses = (schema: v.GenericSchema, body: unknown) => expect(v.safeParse(schema, body).issues).toBeUndefined();
const advisorInputs = {
  weight: 70,
  age: 45,
  baselineHr: 45,
  cardiacHistory: 'none',
  betaBlocker: true,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'tof_2_plus',
  nmba: 'rocuronium',
  creatinine: 90,
};

describe('API answers match contracts/', () => {
  it('auth, patients, tools, history and exports', async () => {
    const signup = await api.request('POST', '/api/auth/signup', {
      body: {
        email: `contracts-${Date.now()}@hospital.example`,
        password: 'correct horse battery',
        name: 'Sara',
        agreeTerms: true,
      },
    });
    parses(authResponseSchema, signup.body);
    const { token } = signup.body as { token: string };
    parses(userSchema, (await api.request('GET', '/api/auth/me', { token })).body);

    const patient = await api.request('POST', '/api/patients', { token, body: { displayName: 'F.A.', weightKg: 72 } });
    parses(patientSchema, patient.body);
    parses(patientListSchema, (await api.request('GET', '/api/patients', { token })).body);

    const run = await api.request('POST', '/api/tools/run', {
      token,
      body: { toolType: 'bradycardia_advisor', inputs: advisorInputs, patientId: patient.body.id },
    });
    parses(advisorRunSchema, run.body);
    parses(recordedRunSchema, run.body);
    const dose = await api.request('POST', '/api/tools/run', {
      token,
      body: {
        toolType: 'dose_calculator',
        inputs: {
          ageGroup: 'adult',
          bodyWeight: 70,
          nmbaType: 'rocuronium',
          creatinine: null,
          tofCount: '2',
          ptc: null,
          rsiScenario: false,
          dialysis: false,
        },
      },
    });
    parses(recordedRunSchema, dose.body);
    parses(
      advisorRunSchema,
      (
        await api.request('POST', '/api/tools/run', {
          body: { toolType: 'bradycardia_advisor', inputs: advisorInputs },
        })
      ).body,
    );

    parses(historyPageSchema, (await api.request('GET', '/api/history', { token })).body);
    parses(historyEntrySchema, (await api.request('GET', `/api/history/${run.body.historyId}`, { token })).body);

    const { jsPDF } = await import('jspdf');
    const pdf = new Uint8Array(new jsPDF().output('arraybuffer'));
    const stored = await api.request('POST', '/api/exports?fileName=notes.pdf', {
      token,
      rawBody: pdf,
      headers: { 'Content-Type': 'application/pdf' },
    });
    parses(exportRecordSchema, stored.body);
    parses(exportListSchema, (await api.request('GET', '/api/exports', { token })).body);
  });

  it('a 400 names the fields', async () => {
    const refused = await api.request('POST', '/api/tools/run', {
      body: { toolType: 'bradycardia_advisor', inputs: { ...advisorInputs, baselineHr: 300 } },
    });
    expect(refused.status).toBe(400);
    const body = v.parse(errorBodySchema, refused.body);
    expect(body.issues[0]).toEqual({ field: 'baselineHr', message: body.message });
  });
});

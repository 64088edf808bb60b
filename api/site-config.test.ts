import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteConfigSchema } from '../contracts/site-config.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startTestApi, type TestApi } from './test-support/test-api.ts';

// HOSPITAL_NAME and GET /api/config (docs/API.md): the hospital's name for the patient counselling sheet.
describe('HOSPITAL_NAME', () => {
  it('is read trimmed, spaces collapsed; unset or blank means none', () => {
    expect(loadConfig({ HOSPITAL_NAME: '  King Fahad   Hospital ' }).hospitalName).toBe('King Fahad Hospital');
    expect(loadConfig({ HOSPITAL_NAME: 'مستشفى الملك فهد' }).hospitalName).toBe('مستشفى الملك فهد');
    expect(loadConfig({}).hospitalName).toBeUndefined();
    expect(loadConfig({ HOSPITAL_NAME: '   ' }).hospitalName).toBeUndefined();
  });
  it.each(['x'.repeat(121), 'King\u202eFahad', 'A\u0007B'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ HOSPITAL_NAME: value })).toThrow(ConfigError);
    expect(() => loadConfig({ HOSPITAL_NAME: value })).toThrow(/^HOSPITAL_NAME must be at most 120 characters/);
  });
});

describe('GET /api/config', () => {
  let configured: TestApi;
  let plain: TestApi;
  beforeAll(async () => {
    configured = await startTestApi({ hospitalName: 'King Fahad Hospital' });
    plain = await startTestApi();
  });
  afterAll(async () => {
    await configured?.close();
    await plain?.close();
  });

  it('answers the hospital name without a session, never cached', async () => {
    const answer = await configured.request('GET', '/api/config');
    expect(answer.status).toBe(200);
    const expected = { hospitalName: 'King Fahad Hospital', signIn: { sso: null, passwordSignIn: true } };
    expect(answer.body).toEqual(expected);
    expect(v.parse(siteConfigSchema, answer.body)).toEqual(expected);
    // A server of an earlier release sends no signIn: e-mail and password only.
    expect(v.parse(siteConfigSchema, { hospitalName: null })).toEqual({
      hospitalName: null,
      signIn: { sso: null, passwordSignIn: true },
    });
    expect(answer.headers.get('cache-control')).toMatch(/no-store/);
  });
  it('answers null when none is configured', async () => {
    expect((await plain.request('GET', '/api/config')).body).toEqual({
      hospitalName: null,
      signIn: { sso: null, passwordSignIn: true },
    });
  });
  it('is read only', async () => {
    expect((await plain.request('POST', '/api/config', {})).status).toBe(405);
  });
});

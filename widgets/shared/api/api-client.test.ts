import { act, renderHook } from '@testing-library/react';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listPatients, recordCalculation, uploadExport } from '../session/account-api.ts';
import { ApiError, apiRequest, NETWORK_ERROR_MESSAGE, UNREADABLE_RESPONSE_MESSAGE, userMessage } from './api-client.ts';
import { sessionStore } from '../session/session-store.ts';
import { useLatest } from './use-latest.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const anything = v.unknown();
let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => json(200, { ok: true }));
  vi.stubGlobal('fetch', fetchMock);
  sessionStore().setState({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('should have failed'),
    (caught: unknown) => caught as ApiError,
  );

describe('API client (docs/product.md §7, §8)', () => {
  it('sends JSON with credentials and the bearer token, and parses JSON', async () => {
    expect(
      await apiRequest('https://api.example/', '/api/tools/run', v.object({ ok: v.boolean() }), {
        method: 'POST',
        body: { a: 1 },
        token: 'tok',
      }),
    ).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('https://api.example/api/tools/run');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json', Authorization: 'bearer tok' },
    });
  });

  it('the account calls send the session token', async () => {
    sessionStore().setState({ token: 'tok' });
    fetchMock.mockResolvedValue(json(200, { historyId: 'h1' }));
    expect(await recordCalculation('', 'roi_calculator', { numberOfCases: 1 })).toMatchObject({ historyId: 'h1' });
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers).toMatchObject({
      Authorization: 'bearer tok',
    });
  });

  it.each([
    {
      response: () => json(400, { message: 'Please fill in all required fields' }),
      message: '400: {"message":"Please fill in all required fields"}',
      human: 'Please fill in all required fields',
    },
    {
      response: () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
      message: '502: Bad Gateway',
      human: 'Bad Gateway',
    },
    {
      response: () => new Response('plain words', { status: 500, statusText: 'Internal Server Error' }),
      message: '500: plain words',
      human: 'plain words',
    },
  ])('a non-OK answer is an error "STATUS: BODY" ($message)', async ({ response, message, human }) => {
    fetchMock.mockResolvedValue(response());
    const error = await failure(apiRequest('', '/api/x', anything, { token: null }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(message);
    expect(error.humanMessage).toBe(human);
    expect(error.issues).toEqual([]);
  });

  it("a 400 carries the API's field issues", async () => {
    // The body exactly as api/http/validate.ts sends it for a refused patient.
    const body = {
      message: 'Weight must be between 1 and 200 kg',
      issues: [
        { field: 'weightKg', message: 'Weight must be between 1 and 200 kg' },
        { field: 'notes', message: 'Notes must be at most 500 characters' },
      ],
    };
    fetchMock.mockResolvedValue(json(400, body));
    const error = await failure(listPatients(''));
    expect(error).toMatchObject({
      status: 400,
      kind: 'http',
      humanMessage: 'Weight must be between 1 and 200 kg',
      message: `400: ${JSON.stringify(body)}`,
    });
    expect(error.issues).toEqual(body.issues);
  });

  it('a network failure is an ApiError with the client message', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await failure(apiRequest('', '/api/x', anything, { token: null }));
    expect(error).toMatchObject({ status: 0, kind: 'network', humanMessage: NETWORK_ERROR_MESSAGE });
  });

  it.each([
    {
      name: 'a body of another shape',
      response: () => json(200, { patients: [{ id: 'p1' }] }),
      where: ' (at patients.0.displayName)',
    },
    {
      name: 'a body that is not JSON',
      response: () => new Response('<html>proxy page</html>', { status: 200 }),
      where: '',
    },
    { name: 'an empty body', response: () => new Response(null, { status: 200 }), where: '' },
  ])('$name is an "unreadable" ApiError, not a crash', async ({ response, where }) => {
    fetchMock.mockResolvedValue(response());
    const error = await failure(listPatients(''));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 200,
      kind: 'unreadable',
      humanMessage: UNREADABLE_RESPONSE_MESSAGE,
      message: `200: unexpected answer from /api/patients${where}`,
    });
  });

  it('uploads a PDF as application/pdf through the same client', async () => {
    sessionStore().setState({ token: 'tok' });
    const record = {
      id: 'e1',
      patientId: null,
      calculationId: null,
      fileName: 'notes.pdf',
      sizeBytes: 9,
      createdAt: '2026-11-22T09:06:00Z',
    };
    fetchMock.mockResolvedValue(json(201, record));
    expect(await uploadExport('', new Blob(['%PDF-1.4 x']), { fileName: 'notes.pdf', patientId: 'p1' })).toEqual(
      record,
    );
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/exports?fileName=notes.pdf&patientId=p1');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/pdf', Authorization: 'bearer tok' });
    expect(init.body).toBeInstanceOf(Blob);
  });
});

describe('userMessage', () => {
  it("shows the server's message, the client's for a network failure, and String(error) for anything else", () => {
    expect(
      userMessage(new ApiError(409, '409: {…}', 'An account with this e-mail already exists. Sign in instead.')),
    ).toBe('An account with this e-mail already exists. Sign in instead.');
    expect(
      userMessage(new ApiError(0, '0: Network error', NETWORK_ERROR_MESSAGE, [], 'network'), 'Sign in failed'),
    ).toBe(NETWORK_ERROR_MESSAGE);
    expect(userMessage(new TypeError('boom'))).toBe('TypeError: boom');
  });

  it("uses the screen's fallback when the server said nothing usable", () => {
    expect(userMessage(new ApiError(502, '502: ', ''), 'Please try again')).toBe('Please try again');
    expect(
      userMessage(
        new ApiError(200, '200: unexpected answer from /api/x', UNREADABLE_RESPONSE_MESSAGE, [], 'unreadable'),
        'Please try again',
      ),
    ).toBe('Please try again');
    expect(
      userMessage(
        new ApiError(200, '200: unexpected answer from /api/x', UNREADABLE_RESPONSE_MESSAGE, [], 'unreadable'),
      ),
    ).toBe(UNREADABLE_RESPONSE_MESSAGE);
    expect(userMessage(new Error('x'), 'Please try again')).toBe('Please try again');
  });
});

describe('useLatest (fetch, ignore if stale)', () => {
  const deferred = <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    return { promise, resolve, reject };
  };

  it('passes on only the newest answer, even when an older one arrives last', async () => {
    const answers = { a: deferred<string>(), b: deferred<string>() };
    const onResult = vi.fn();
    const { rerender } = renderHook(
      ({ key }: { key: 'a' | 'b' }) => useLatest(() => answers[key].promise, [key], { onResult, onError: vi.fn() }),
      { initialProps: { key: 'a' as 'a' | 'b' } },
    );
    rerender({ key: 'b' });
    await act(async () => answers.b.resolve('new'));
    await act(async () => answers.a.resolve('old'));
    expect(onResult.mock.calls).toEqual([['new']]);
  });

  it('drops an answer or a failure that arrives after unmount', async () => {
    const answer = deferred<string>();
    const onResult = vi.fn();
    const onError = vi.fn();
    const { unmount } = renderHook(() => useLatest(() => answer.promise, [], { onResult, onError }));
    unmount();
    await act(async () => answer.reject(new Error('late')));
    expect(onResult).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it('reports a failure of the newest load', async () => {
    const onError = vi.fn();
    renderHook(() => useLatest(() => Promise.reject(new Error('down')), [], { onResult: vi.fn(), onError }));
    await act(async () => {});
    expect(onError).toHaveBeenCalledWith(new Error('down'));
  });

  it('with a delay, loads once after the input settles', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async (q: string) => q);
    const onResult = vi.fn();
    const { rerender } = renderHook(
      ({ q }: { q: string }) => useLatest(() => load(q), [q], { onResult, onError: vi.fn(), delayMs: 200 }),
      { initialProps: { q: 'F' } },
    );
    rerender({ q: 'F.A' });
    await act(async () => vi.advanceTimersByTime(199));
    expect(load).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(load.mock.calls).toEqual([['F.A']]);
    expect(onResult).toHaveBeenCalledWith('F.A');
  });
});

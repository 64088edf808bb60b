import { describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE } from '../messages.ts';
import type { AppContext } from '../state.ts';
import { errorHandler } from './error-handler.ts';

/** An error as Koa's ctx.throw makes it (http-errors: `expose` is true for a 4xx, false for a 5xx, unless given). */
const createError = (status: number, message: string, props: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { status, expose: status < 500, ...props });

/** What the handler answers for an error thrown by the next middleware, and whether it logged it. */
async function answerFor(thrown: unknown) {
  const logged: unknown[] = [];
  const ctx = { status: 404, body: undefined, type: '' } as unknown as AppContext;
  await errorHandler((error) => logged.push(error))(ctx, async () => {
    throw thrown;
  });
  return { status: ctx.status, body: ctx.body, logged: logged.length };
}

describe('errorHandler', () => {
  it.each([
    ['a 4xx', createError(409, 'Taken'), 409, { message: 'Taken' }, 0],
    [
      'a 4xx with a code',
      createError(401, 'Idle', { code: 'session_idle' }),
      401,
      { message: 'Idle', code: 'session_idle' },
      0,
    ],
    [
      'a 4xx not to be shown',
      createError(400, 'secret', { expose: false }),
      500,
      { message: INTERNAL_ERROR_MESSAGE },
      1,
    ],
    [
      'a 502 thrown to be shown',
      createError(502, 'The EHR did not accept it.', { expose: true }),
      502,
      { message: 'The EHR did not accept it.' },
      0,
    ],
    ['a 504 thrown to be shown', createError(504, 'No answer.', { expose: true }), 504, { message: 'No answer.' }, 0],
    [
      'a 502 not marked (http-errors hides 5xx)',
      createError(502, 'upstream detail'),
      500,
      { message: INTERNAL_ERROR_MESSAGE },
      1,
    ],
    ['a plain Error', new Error('a bug'), 500, { message: INTERNAL_ERROR_MESSAGE }, 1],
    ['not an Error at all', undefined, 500, { message: INTERNAL_ERROR_MESSAGE }, 1],
  ])('%s', async (_name, thrown, status, body, logged) => {
    expect(await answerFor(thrown)).toEqual({ status, body, logged });
  });
});

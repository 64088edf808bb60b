import type { Middleware, Next } from 'koa';
import compress from 'koa-compress';
import { NO_ACCEPTABLE_ENCODING_MESSAGE } from '../messages.ts';
import type { AppContext, AppState } from '../state.ts';

/** The codings this server can send, in its order of preference when the client weighs them alike. */
export const SERVER_ENCODINGS = ['br', 'gzip', 'deflate', 'identity'] as const;
export type Encoding = (typeof SERVER_ENCODINGS)[number];

/** RFC 9110 section 12.4.2: a qvalue is 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
/** RFC 9110 section 5.6.2: a coding is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 section 8.4.1.3: x-gzip is gzip. */
const ALIASES: Readonly<Record<string, string>> = { 'x-gzip': 'gzip' };

/**
 * The weights an Accept-Encoding value gives, by coding (lower-cased; `*` included). A member that is
 * not a token with at most a `q` weight of the RFC's form (`gzip;q=-1`, `br;q=2`, `;;`) is left out, as
 * if it had not been sent; the first weight given for a coding counts.
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const member of header.split(',')) {
    const [rawName = '', ...parameters] = member.split(';').map((part) => part.trim());
    if (!rawName && parameters.length === 0) continue; // an empty list element: allowed, means nothing
    if (!TOKEN.test(rawName)) continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const match = /^q\s*=\s*(.*)$/i.exec(parameter);
      if (!match || !QVALUE.test(match[1]!)) {
        valid = false;
        break;
      }
      q = Number(match[1]);
    }
    const name = rawName.toLowerCase();
    const coding = ALIASES[name] ?? name;
    if (valid && !weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

/**
 * The coding to answer with (RFC 9110 section 12.5.3): the one of ours with the highest weight above 0,
 * ties going to our order of preference. A coding not named takes the weight of `*`, if given.
 * Identity not named (and no `*`) stays acceptable, ranked with the least wanted coding named
 * (`gzip;q=0.5` is gzip, as negotiator ranks it). Undefined: the client refuses every coding we have
 * (a 406). No header at all: identity, as before (a client that says nothing gets the body as it is).
 */
export function chooseEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return 'identity';
  const weights = parseAcceptEncoding(header);
  const wildcard = weights.get('*');
  const named = [...weights.values()].filter((weight) => weight > 0);
  const implicitIdentity = named.length > 0 ? Math.min(...named) : 1;
  const weightOf = (coding: Encoding) =>
    weights.get(coding) ?? wildcard ?? (coding === 'identity' ? implicitIdentity : 0);
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const coding of SERVER_ENCODINGS) {
    const weight = weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Whether the client has refused the body as it is (identity;q=0, or *;q=0 without identity). */
const refusesIdentity = (header: string | undefined) => {
  if (header === undefined) return false;
  const weights = parseAcceptEncoding(header);
  return (weights.get('identity') ?? weights.get('*') ?? 1) === 0;
};

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Content coding for every answer, decided once per request before anything else runs:
 * - nothing we can send is acceptable (`identity;q=0` alone, `*;q=0`): 406 at once, so no route runs
 *   and nothing is written;
 * - otherwise the request's Accept-Encoding is replaced by the one coding chosen (q-values honoured:
 *   `gzip;q=1.0, br;q=0.1` is gzip), which koa-send (the site's .br/.gz files) and koa-compress (API
 *   answers over 1 KiB) then follow without negotiating again; with identity refused, even a small or
 *   already compact answer is compressed.
 * koa-compress failing after the route has answered (it never should) leaves that answer uncompressed
 * rather than turning it into a 500: a write the route committed is never reported as failed.
 */
export function contentEncoding(log: (error: unknown) => void): Middleware<AppState> {
  const compressAnswer = compress({
    threshold: (_type, _size, ctx) => ((ctx.state as AppState).identityRefused ? 0 : COMPRESS_THRESHOLD_BYTES),
  });
  return async function negotiateEncoding(ctx: AppContext, next: Next) {
    const header = ctx.request.headers['accept-encoding'];
    const chosen = chooseEncoding(header);
    if (!chosen) {
      ctx.vary('Accept-Encoding');
      ctx.throw(406, NO_ACCEPTABLE_ENCODING_MESSAGE);
    }
    ctx.request.headers['accept-encoding'] = chosen;
    const identityRefused = refusesIdentity(header);
    if (identityRefused) {
      ctx.state.identityRefused = true;
      ctx.compress = true; // whatever the type (a PDF, an image) and size
    } else if (chosen === 'identity') {
      // Nothing to compress with: koa-compress would only say so (Vary), at a cost on every such request.
      ctx.vary('Accept-Encoding');
      return next();
    }
    let answered = false;
    try {
      await compressAnswer(ctx, async () => {
        await next();
        answered = true;
      });
    } catch (error) {
      if (!answered) throw error;
      log(error);
      ctx.remove('Content-Encoding');
    }
  };
}

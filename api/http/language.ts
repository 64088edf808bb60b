import type { Next } from 'koa';
import { clinicalTextsFor, isLang, type ClinicalTexts, type Lang } from '../../clinical/index.ts';
import type { AppContext } from '../state.ts';
import { isApiPath } from './api-path.ts';

/** The query parameter that asks for a language: `?lang=ar` or `?lang=en`. */
const LANG_PARAMETER = 'lang';

/**
 * The language an answer is written in (docs/API.md, "Language"). A `lang` query value decides when it is given
 * (`en` or `ar`, any case; any other value is ignored and the answer is English, never an error); without one
 * (or with an empty one), the first tag of `Accept-Language` does: `ar` or `ar-…` is Arabic, anything else
 * English. Quality values are not weighed: the first tag is the one the client put first.
 */
function requestedLang(query: unknown, acceptLanguage: string | undefined): Lang {
  if (query !== undefined && query !== '') {
    const asked = typeof query === 'string' ? query.trim().toLowerCase() : undefined;
    return isLang(asked) ? asked : 'en';
  }
  const firstTag = (acceptLanguage ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
  return firstTag === 'ar' || firstTag.startsWith('ar-') ? 'ar' : 'en';
}

/**
 * Reads the language of an API request into `ctx.state.lang` and takes `lang` out of the query, so a route's
 * own query (checked strictly: unknown fields are refused) never sees it. API answers vary by Accept-Language.
 */
export function negotiateLanguage() {
  return async function language(ctx: AppContext, next: Next) {
    if (isApiPath(ctx.path)) {
      const { [LANG_PARAMETER]: asked, ...rest } = ctx.query;
      ctx.state.lang = requestedLang(asked, ctx.get('Accept-Language') || undefined);
      if (asked !== undefined) ctx.query = rest;
      ctx.vary('Accept-Language');
    }
    await next();
  };
}

/** The clinical texts of the request's language (English when none was negotiated). */
export function clinicalTexts(ctx: AppContext): ClinicalTexts {
  return clinicalTextsFor(ctx.state.lang ?? 'en');
}

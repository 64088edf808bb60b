import { describe, expect, it } from 'vitest';
import * as api from '../../../../contracts/api-messages.ts';
import { withoutIsolates } from '../../../../clinical/bidi.ts';
import { isolationProblems } from '../../../../clinical/texts/checks.ts';
import { NETWORK_ERROR_MESSAGE } from '../../api/api-client.ts';
import { hostFor } from '../../widget-host/widget-context.ts';
import { serverMessageInArabic as inPack } from './server.ts';
import { SECURITY_SERVER_AR } from './ar/security-server.ts';
import { EHR_SERVER_AR } from '../../ehr/texts.ts';
/**
 * As the element shows it: the Arabic pack's, or the sign-in code's own (ar/security-server.ts), or the EHR
 * launch's (ehr/texts.ts).
 */
const serverMessageInArabic = (text: string) => SECURITY_SERVER_AR.get(text) ?? EHR_SERVER_AR.get(text) ?? inPack(text);

// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from './ar/arabic-pack.ts';
import { registerLangPack } from '../lang-packs.ts';

registerLangPack('ar', arabicPack);

describe('the server’s messages in an Arabic element', () => {
  it.each([
    [api.INVALID_CREDENTIALS_MESSAGE, 'البريد الإلكتروني أو كلمة المرور غير صحيحة'],
    [api.SESSION_INVALID_MESSAGE, 'انتهت جلستك أو لم تعد صالحة. يُرجى تسجيل الدخول مرة أخرى.'],
    [NETWORK_ERROR_MESSAGE, 'تعذّر الوصول إلى الخادم. تحقّق من الاتصال وحاول مرة أخرى.'],
  ])('%s', (english, arabic) => {
    expect(serverMessageInArabic(english)).toBe(arabic);
  });

  it('says why an idle session ended, with its minutes', () => {
    expect(withoutIsolates(serverMessageInArabic(api.sessionIdleMessage(30)))).toBe(
      'سُجّل خروجك بعد 30 min دون نشاط. يُرجى تسجيل الدخول مرة أخرى.',
    );
  });

  it('keeps the minutes of a lock-out', () => {
    expect(withoutIsolates(serverMessageInArabic(api.signInLockedMessage(15 * 60)))).toBe(
      'محاولات دخول فاشلة كثيرة. حاول مرة أخرى بعد 15 min.',
    );
  });

  it('keeps the value of a message built from one (the body limit, the search length)', () => {
    expect(withoutIsolates(serverMessageInArabic(api.bodyTooLargeMessage('64kb')))).toBe(
      'نص الطلب كبير جدًّا (الحد 64 KB)',
    );
    expect(withoutIsolates(serverMessageInArabic(api.searchTooLongMessage(100)))).toBe(
      'يجب ألّا يزيد عدد أحرف نص البحث على 100',
    );
    // Only the whole message: a longer text that contains one stays as written.
    const longer = `${api.searchTooLongMessage(100)} (sent 140)`;
    expect(serverMessageInArabic(longer)).toBe(longer);
  });

  it('every message of api/messages.ts has an Arabic text; anything unknown is shown as written', () => {
    const constants = Object.entries(api).filter(([, value]) => typeof value === 'string') as [string, string][];
    expect(constants.length).toBeGreaterThan(15);
    // The messages built from a value, each with a value the API can send.
    const samples: Record<string, string> = {
      bodyTooLargeMessage: api.bodyTooLargeMessage('64kb'),
      searchTooLongMessage: api.searchTooLongMessage(100),
      signInLockedMessage: api.signInLockedMessage(14 * 60),
      sessionIdleMessage: api.sessionIdleMessage(30),
    };
    const builders = Object.entries(api).filter(([, value]) => typeof value === 'function');
    expect(builders.map(([name]) => name).sort()).toEqual(Object.keys(samples).sort());
    const built = Object.entries(samples);
    for (const [name, text] of [...constants, ...built]) {
      expect([name, serverMessageInArabic(text)]).not.toEqual([name, text]);
      // every number (and the JSON example) in a left-to-right isolate, as in the catalogues
      expect([name, isolationProblems(serverMessageInArabic(text))]).toEqual([name, []]);
    }
    expect(withoutIsolates(serverMessageInArabic(api.CHANGES_OBJECT_MESSAGE))).toBe(
      'أرسل التغييرات كائن JSON، مثل {"weightKg": 70}',
    );
    expect(serverMessageInArabic(api.CHANGES_OBJECT_MESSAGE)).toContain('\u2066{"weightKg": 70}\u2069');
    expect(serverMessageInArabic('Weight must be between 1 and 200 kg')).toBe('Weight must be between 1 and 200 kg');
  });

  it('the Arabic pack every Arabic page fetches leaves the sign-in code’s messages to it', () => {
    for (const text of SECURITY_SERVER_AR.keys()) expect(inPack(text)).toBe(text);
    expect(inPack(api.SECOND_FACTOR_REQUIRED_MESSAGE)).not.toBe(api.SECOND_FACTOR_REQUIRED_MESSAGE);
  });

  it('an English element shows the server’s words unchanged', () => {
    expect(hostFor(null, 'en').serverMessage(api.INVALID_CREDENTIALS_MESSAGE)).toBe(api.INVALID_CREDENTIALS_MESSAGE);
    expect(hostFor(null, 'ar').serverMessage(api.INVALID_CREDENTIALS_MESSAGE)).toMatch(/[\u0600-\u06FF]/);
  });
});

import { describe, expect, it } from 'vitest';
import * as api from '../../../contracts/api-messages.ts';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { NETWORK_ERROR_MESSAGE } from '../api-client.ts';
import { hostFor } from '../widget-context.ts';
import { serverMessageInArabic } from './server.ts';

describe('the server’s messages in an Arabic element', () => {
  it.each([
    [api.INVALID_CREDENTIALS_MESSAGE, 'البريد الإلكتروني أو كلمة المرور غير صحيحة'],
    [api.SESSION_INVALID_MESSAGE, 'انتهت جلستك أو لم تعد صالحة. يُرجى تسجيل الدخول مرة أخرى.'],
    [NETWORK_ERROR_MESSAGE, 'تعذّر الوصول إلى الخادم. تحقّق من الاتصال وحاول مرة أخرى.'],
  ])('%s', (english, arabic) => {
    expect(serverMessageInArabic(english)).toBe(arabic);
  });

  it('keeps the minutes of a lock-out', () => {
    expect(withoutIsolates(serverMessageInArabic(api.signInLockedMessage(15 * 60)))).toBe(
      'محاولات دخول فاشلة كثيرة. حاول مرة أخرى بعد 15 دقيقة.',
    );
  });

  it('every message of api/messages.ts has an Arabic text; anything unknown is shown as written', () => {
    const constants = Object.entries(api).filter(([, value]) => typeof value === 'string') as [string, string][];
    expect(constants.length).toBeGreaterThan(15);
    for (const [name, text] of constants) expect([name, serverMessageInArabic(text)]).not.toEqual([name, text]);
    expect(serverMessageInArabic('Weight must be between 1 and 200 kg')).toBe('Weight must be between 1 and 200 kg');
  });

  it('an English element shows the server’s words unchanged', () => {
    expect(hostFor(null, 'en').serverMessage(api.INVALID_CREDENTIALS_MESSAGE)).toBe(api.INVALID_CREDENTIALS_MESSAGE);
    expect(hostFor(null, 'ar').serverMessage(api.INVALID_CREDENTIALS_MESSAGE)).toMatch(/[\u0600-\u06FF]/);
  });
});

import { langOf } from '../../widgets/shared/lang/lang.ts';
import type { Lang } from '../content/types.ts';

/** What the installable page says of itself: the app's short name and the update prompt (host/pwa/register.ts). */
export interface PwaMessages {
  /** The name under the icon on a home screen (the manifest's short_name). */
  shortName: string;
  /** The prompt shown when a new version is ready; choosing it reloads the page under the new version. */
  updateAvailable: string;
}

export const en: PwaMessages = {
  shortName: 'Sugammadex',
  updateAvailable: 'Update available – reload',
};

export const ar: PwaMessages = {
  shortName: 'سوغاماديكس',
  updateAvailable: 'يتوفر تحديث – أعد التحميل',
};

const MESSAGES: Readonly<Record<Lang, PwaMessages>> = { en, ar };

/** The texts in `lang` (a page's `<html lang>`): Arabic for `ar` and `ar-…`, English otherwise. */
export function pwaMessagesFor(lang: string | null | undefined): PwaMessages {
  return MESSAGES[langOf(lang)];
}

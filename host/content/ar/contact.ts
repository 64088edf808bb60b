import {
  CONCENTRATION_MG_PER_ML,
  VIAL_CONTENT_MG,
  VIAL_PRICE_SAR,
  VIAL_VOLUME_ML,
  VIALS_PER_BOX,
} from '../../../clinical/index.ts';
import { formatSarPrice } from '../../../widgets/shared/lang/format.ts';
import type { ContactContent } from '../types.ts';
import { SITE_AR } from './nav.ts';
import { ltr } from './bidi.ts';

/** Contact and footer in Arabic (host/content/contact.ts). */
export const CONTACT_AR: ContactContent = {
  title: 'تواصل معنا',
  productName: 'سوغاماديكس (sugammadex) محلول للحقن',
  productCard: [
    `قارورة ${ltr(`${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL`)}`,
    `التركيز ${ltr(`${CONCENTRATION_MG_PER_ML} mg/mL`)}`,
    `علبة من ${ltr(VIALS_PER_BOX)} قوارير`,
    `${ltr(`${formatSarPrice(VIAL_PRICE_SAR)} SAR`)} للقارورة`,
  ],
  calculateButton: 'احسب الجرعة الآن',
  resourcesButton: 'تنزيل المصادر',
  saudiMade: 'صُنع في السعودية',
  lastUpdated: `آخر تحديث: ${ltr(5)} أغسطس ${ltr(2025)}`,
  copyright: `© ${ltr(2025)} ${SITE_AR.name}. جميع الحقوق محفوظة.`,
  hcpOnly: 'للممارسين الصحيين فقط. هذا المحتوى موجَّه إلى الممارسين الصحيين المرخَّصين.',
  decisionSupport: 'للدعم في اتخاذ القرار فقط: لا يغني عن التقدير السريري ولا عن معلومات الوصف المعتمدة محليًا.',
  clinicalVerification: 'التحقق السريري',
};

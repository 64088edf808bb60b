import { ltr as isolate } from '../../../clinical/index.ts';
import { EVIDENCE } from '../evidence.ts';
import type { PageContent, Study } from '../types.ts';
import { ltr } from './bidi.ts';

/**
 * A study of host/content/evidence.ts (found by its DOI link) with its study type and description in
 * Arabic: the title, authors, journal and link stay in their original language.
 */
function study(link: string, arabic: Pick<Study, 'type' | 'description'>): Study {
  const english = EVIDENCE.studies.find((s) => s.link === link);
  if (!english) throw new Error(`No study links to ${link}`);
  return { ...english, ...arabic };
}

const studies: Study[] = [
  study('https://doi.org/10.1097/ALN.0000000000003256', {
    type: 'دراسة أترابية',
    description: `أترابية متطابقة من ${ltr('22,856')} زوجًا: المضاعفات الرئوية الكبرى بعد الجراحة (PPCs) ${ltr('3.5%')} بعد سوغاماديكس (sugammadex) مقابل ${ltr('4.8%')} بعد نيوستيغمين (neostigmine)، ونسبة الأرجحية المعدَّلة (adjusted OR) ${ltr('0.70')}.`,
  }),
  study('https://doi.org/10.1002/14651858.CD012763', {
    type: 'مراجعة منهجية',
    description: `مراجعة كوكرين (Cochrane) لسوغاماديكس (sugammadex) مقابل نيوستيغمين (neostigmine) لدى البالغين: أحداث ضائرة مركَّبة أقل مع سوغاماديكس، ونسبة الخطر (RR) ${ltr('0.60')}.`,
  }),
  study('https://doi.org/10.1097/ALN.0b013e31818a3fee', {
    description: `إحصار روكورونيوم (rocuronium) العميق: التعافي في ${ltr('2.9 min')} مع سوغاماديكس (sugammadex) مقابل ${ltr('50.4 min')} مع نيوستيغمين (neostigmine).`,
  }),
  study('https://doi.org/10.1097/ALN.0000000000004379', {
    description: `المراقبة الكمية، ونسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')} قبل نزع الأنبوب الرغامي، وسوغاماديكس (sugammadex) للإحصار العميق والمتوسط والسطحي بروكورونيوم (rocuronium) أو فيكورونيوم (vecuronium).`,
  }),
  study('https://doi.org/10.1186/s13741-021-00203-6', {
    description: `تحليل تلوي لتجارب معشاة: مضاعفات رئوية بعد الجراحة (PPCs) أقل إجمالًا مع سوغاماديكس (sugammadex)، ونسبة الأرجحية (OR) ${ltr('0.62 (0.43-0.89)')}.`,
  }),
];

/** Clinical evidence in Arabic (host/content/evidence.ts). */
export const EVIDENCE_AR: PageContent['evidence'] = {
  title: 'الأدلة السريرية',
  intro:
    'دراسات النتائج والإرشادات التي يستند إليها العكس المباشر بسوغاماديكس (sugammadex)، مع رابط كلٍّ منها إلى مصدره المنشور.',
  studies,
  openStudy: 'فتح الدراسة',
  evidencePackButton: 'تنزيل حزمة الأدلة (PDF)',
  // the title as it is (it may wrap), isolated
  studyWithoutLink: (title) => `الدراسة: ${isolate(title)}\n\nسيُتاح الرابط عند النشر.`,
};

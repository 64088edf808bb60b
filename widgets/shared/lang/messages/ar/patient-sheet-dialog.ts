import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/** The patient sheet's dialog in Arabic (terms: docs/arabic-glossary.md; docs/clinical-reference.md §8). */
export const patientSheetDialog: Messages['patientSheetDialog'] = {
  title: 'ورقة المريضة: منع الحمل',
  intro:
    'ورقة من صفحة واحدة للمريضة تشرح أثر سوغاماديكس (sugammadex) في وسيلة منع الحمل، بتواريخها هي. ' +
    'تُنشأ على هذا الجهاز ولا يُرسَل شيء.',
  language: 'لغة الورقة',
  languages: { ar: 'العربية', en: 'الإنجليزية', both: 'العربية والإنجليزية في صفحة واحدة' },
  givenAt: 'وقت إعطاء سوغاماديكس (sugammadex)',
  givenAtHint: 'الآن، ما لم تغيّره',
  method: 'وسيلة منع الحمل التي تستخدمها المريضة',
  methods: {
    combined_pill: 'الحبوب المركبة',
    progestogen_only_pill: 'حبوب البروجستين فقط',
    non_oral_hormonal: 'الحلقة المهبلية أو الغرسة أو الحقنة أو اللصقة أو اللولب الهرموني',
    non_hormonal: 'وسيلة غير هرمونية (الواقي الذكري، اللولب النحاسي)',
    none: 'لا شيء',
    not_asked: 'لم تُسأل',
  },
  includeInitials: 'طباعة الأحرف الأولى من اسم المريضة',
  initials: 'الأحرف الأولى',
  initialsHint: 'الأحرف الأولى فقط، وليس رقم الملف الطبي (MRN) أبدًا',
  hospital: (name) => `المستشفى على الورقة: ${/[A-Za-z]/.test(name) ? ltr(name) : name}`,
  printedOn: (date) => `تاريخ الطباعة: ${date}`,
  keep: 'تنتهي الورقة بعبارة «احتفظي بهذه الورقة».',
  download: 'تنزيل PDF',
  cancel: 'إلغاء',
  madeTitle: 'تم تنزيل ورقة المريضة',
  madeDetail: 'سلّمها للمريضة واشرحها لها.',
  fixFields: 'يُرجى مراجعة الحقول المحددة.',
  issues: {
    language: 'يُرجى اختيار لغة الورقة.',
    method: 'يُرجى اختيار وسيلة منع الحمل، أو «لم تُسأل».',
    givenAt: 'يُرجى إدخال تاريخ ووقت إعطاء سوغاماديكس (sugammadex).',
    printedOn: 'تاريخ الطباعة غير موجود.',
    initials: `الأحرف الأولى: حروف ونقاط ومسافات فقط، ${ltr(8)} أحرف على الأكثر.`,
    hospitalName: 'اسم المستشفى المُعدّ طويل جدًا.',
  },
};

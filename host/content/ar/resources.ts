import { RESOURCES } from '../resources.ts';
import type { Resource, ResourcesContent } from '../types.ts';
import { ltr } from './bidi.ts';

/**
 * A resource of host/content/resources.ts (found by its file) with its title and description in Arabic.
 * The PDF itself is the English one (the page says so next to each link).
 */
function resource(file: string, arabic: Pick<Resource, 'title' | 'description'>): Resource {
  const english = [...RESOURCES.resources, RESOURCES.textbook].find((r) => r.file === file);
  if (!english) throw new Error(`No resource ${file}`);
  return { ...english, ...arabic };
}

/** Resources in Arabic: the same six cards and the textbook chapter, in the same order. */
export const RESOURCES_AR: ResourcesContent = {
  title: 'المصادر',
  intro: 'أدلة ونشرات لإرشاد المرضى واستمارات للتنزيل والطباعة. الملفات متاحة حاليًا باللغة الإنجليزية.',
  resources: [
    resource('hcp-dosing-guide.pdf', {
      title: 'دليل الجرعات للممارس الصحي',
      description:
        'الجرعة حسب عمق الإحصار، وحساب القوارير مع أمثلة محلولة، والإعطاء، والمراقبة، وإرشادات مرضى الكلى والأطفال وإعادة الإحصار (re-paralysis).',
    }),
    resource('mechanism-of-action-infographic.pdf', {
      title: 'رسم توضيحي لآلية العمل',
      description: 'خطوات التغليف الثلاث، والخصائص الرئيسية الأربع، والمُحصِرات التي يعكسها والتي لا يعكسها.',
    }),
    resource('contraception-patient-counselling.pdf', {
      title: 'إرشاد المريضات بشأن موانع الحمل',
      description: `نشرة بلغة مبسطة للمريضات اللواتي يستخدمن موانع الحمل الهرمونية: وسيلة منع حمل احتياطية لمدة ${ltr(7)} أيام.`,
    }),
    resource('safety-profile.pdf', {
      title: 'ملف السلامة',
      description:
        'موانع الاستعمال والتحذيرات والتفاعلات الضائرة والتداخلات الدوائية مع مصادرها، وتدبير بطء القلب والتأق (anaphylaxis).',
    }),
    resource('paediatric-renal-counselling.pdf', {
      title: 'إرشاد أولياء أمور الأطفال ومرضى الكلى',
      description: 'نشرة بلغة مبسطة لأولياء أمور الأطفال وللمرضى الذين يعانون مشكلات في الكلى.',
    }),
    resource('usage-form.pdf', {
      title: 'استمارة الاستخدام',
      description:
        'سجل قابل للطباعة لجرعة عكس واحدة: عمق الإحصار، والجرعة، والقوارير، ووقت الإعطاء، ونسبة سلسلة الأربع (TOF ratio) بعد العكس، والتوقيعات.',
    }),
  ],
  textbook: resource('textbook-chapter.pdf', {
    title: 'عكس الإحصار العصبي العضلي: فصل من كتاب مرجعي',
    description:
      'المراقبة، والعكس غير المباشر والمباشر، والجرعات، والفئات الخاصة، والسلامة، وإعادة الإحصار، والنتائج، في فصل واحد.',
  }),
  downloadLabel: 'تنزيل PDF',
};

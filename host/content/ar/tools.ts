import type { PageContent } from '../types.ts';

/** The tool sections' lead-ins in Arabic (host/content/tools.ts); the widgets carry their own titles. */
export const TOOL_SECTIONS_AR: PageContent['tools'] = {
  calculator: {
    title: 'حاسبة الجرعة',
    intro: 'الجرعة حسب الوزن، وعدد القوارير والحجم والتكلفة، وفق عمق الإحصار والفئة العمرية ووظائف الكلى.',
  },
  'bradycardia-advisor': {
    title: 'مستشار خطر بطء القلب',
    intro: 'تقدير شفاف وغير مُتحقَّق من صحته للخطر، مع خطة التدبير وإرشادات لإعادة الإحصار (re-paralysis).',
  },
  'safety-calculator': {
    title: 'حاسبة السلامة',
    intro: 'تقديرات وقت غرفة العمليات والسعة والمضاعفات الرئوية بعد الجراحة (PPCs) وفق عدد حالاتك.',
  },
};

import type { NavItem, SiteMeta } from '../types.ts';

/** Top navigation in Arabic: the same ten sections, in the same order, with the same anchors. */
export const NAV_ITEMS_AR: NavItem[] = [
  { label: 'آلية العمل', target: 'moa' },
  { label: 'الميزة التنافسية', target: 'advantage' },
  { label: 'حاسبة الجرعة', target: 'calculator' },
  { label: 'مستشار خطر بطء القلب', target: 'bradycardia-advisor' },
  { label: 'حاسبة السلامة', target: 'safety-calculator' },
  { label: 'مركز السلامة', target: 'safety' },
  { label: 'الأدلة السريرية', target: 'evidence' },
  { label: 'المصادر', target: 'resources' },
  { label: 'الأسئلة الشائعة', target: 'faq' },
  { label: 'تواصل معنا', target: 'contact' },
];

/** Page metadata in Arabic; the product is still named generically (sugammadex class), never by a brand. */
export const SITE_AR: SiteMeta = {
  name: 'سوغاماديكس لعكس الإحصار',
  title: 'سوغاماديكس لعكس الإحصار - الجرعات والسلامة والأدلة للممارسين الصحيين',
  description:
    'أدوات للدعم في اتخاذ القرار موجَّهة إلى الممارسين الصحيين المرخّصين: جرعات سوغاماديكس (sugammadex) حسب الوزن لعكس إحصار روكورونيوم (rocuronium) وفيكورونيوم (vecuronium)، وتقدير خطر بطء القلب وإرشادات إعادة الإحصار (re-paralysis)، ومعلومات السلامة، والأدلة السريرية، ومصادر قابلة للتنزيل.',
};

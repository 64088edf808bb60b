import { ltr } from '../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/**
 * The account area's strings (Arabic; the records' strings the tools share are in ./records.ts). Patient names
 * are left bare; the MRN, weights and file names are left-to-right runs.
 */
export const account: Messages['account'] = {
  title: 'الحساب',
  tabsLabel: 'أقسام الحساب',
  tabs: { patients: 'المرضى', history: 'السجل', exports: 'الملفات المُصدَّرة', profile: 'الملف الشخصي' },
  // Patients
  search: 'البحث عن المرضى',
  searchHint: 'الاسم أو الأحرف الأولى أو رقم الملف الطبي (MRN)',
  noPatients: 'لا يوجد مرضى بعد. أضف مريضًا أدناه.',
  noMatches: 'لا يوجد مريض يطابق هذا البحث.',
  addPatient: 'إضافة مريض',
  editPatient: 'تعديل بيانات المريض',
  save: 'حفظ',
  cancel: 'إلغاء',
  edit: 'تعديل',
  delete: 'حذف',
  confirmDelete: (name: string) => `حذف ${name}؟ تبقى الحسابات الخاصة به في سجلك، دون ربط بمريض.`,
  use: 'استخدام في الحسابات',
  inUse: 'قيد الاستخدام',
  displayName: 'الاسم المعروض أو الأحرف الأولى',
  mrn: 'رقم الملف الطبي (MRN) / رقم المستشفى',
  yearOfBirth: 'سنة الميلاد',
  ageGroup: 'الفئة العمرية',
  ageGroupNone: 'غير مُسجَّل',
  ageGroups: { adult: 'بالغ', pediatric: 'طفل', infant: 'رضيع' },
  weight: 'الوزن',
  // A unit: stays Latin, as in English (docs/arabic-glossary.md).
  kg: 'kg',
  notes: 'ملاحظات',
  patientSaved: 'تم حفظ المريض',
  patientDeleted: 'تم حذف المريض',
  actionFailed: 'تعذّر الحفظ',
  loadFailed: 'تعذّر التحميل',
  patientSummary: (mrn: string | null, weightKg: number | null) =>
    [mrn ? `رقم الملف الطبي (MRN) ${ltr(mrn)}` : null, weightKg != null ? ltr(`${weightKg} kg`) : null]
      .filter(Boolean)
      .join(' · '),
  // History
  filterPatient: 'المريض',
  filterTool: 'الأداة',
  allPatients: 'جميع المرضى',
  allTools: 'جميع الأدوات',
  tools: {
    dose_calculator: 'حاسبة الجرعة',
    bradycardia_advisor: 'مستشار خطر بطء القلب',
    roi_calculator: 'حاسبة العائد على الاستثمار (ROI)',
  },
  noHistory: 'لا توجد حسابات بعد. تظهر هنا الحسابات التي تُجرى أثناء تسجيل الدخول.',
  open: 'فتح',
  back: 'العودة إلى القائمة',
  loadMore: 'تحميل المزيد',
  entryInputs: 'المُدخلات',
  entryResult: 'النتيجة كما حُسبت حينها',
  unlinked: 'بدون مريض',
  linkedPatient: 'مريض مرتبط',
  // Exports (file names are Latin: a left-to-right run)
  noExports: 'لا توجد ملفات مُصدَّرة بعد.',
  download: 'تنزيل',
  deleteExport: (fileName: string) => `حذف ${ltr(fileName)}`,
  confirmDeleteExport: (fileName: string) =>
    `حذف ${ltr(fileName)}؟ سيُزال ملف PDF المخزَّن من حسابك، ولن يمكن تنزيله مرة أخرى.`,
  exportDeleted: 'تم حذف الملف المُصدَّر',
  deleteFailed: 'تعذّر الحذف',
  // Profile
  name: 'الاسم',
  email: 'البريد الإلكتروني',
  licence: 'رقم الترخيص',
  licenceNone: 'غير مُقدَّم',
  signOut: 'تسجيل الخروج',
  // Profile: change password (issue 31)
  changePassword: 'تغيير كلمة المرور',
  currentPassword: 'كلمة المرور الحالية',
  newPassword: 'كلمة المرور الجديدة',
  confirmNewPassword: 'تأكيد كلمة المرور الجديدة',
  currentPasswordRequired: 'أدخل كلمة المرور الحالية',
  newPasswordLength: `يجب أن تتكوّن كلمة المرور الجديدة من ${ltr('8-128')} حرفًا`,
  newPasswordsDiffer: 'كلمتا المرور الجديدتان غير متطابقتين',
  newPasswordUnchanged: 'يجب أن تختلف كلمة المرور الجديدة عن الحالية',
  passwordChangedTitle: 'تم تغيير كلمة المرور',
  passwordChangedDescription: 'تم تسجيل الخروج من جميع الجلسات الأخرى لحسابك. ستبقى مسجّلًا للدخول هنا.',
  passwordChangeFailed: 'تعذّر تغيير كلمة المرور',
  // Export to notes (dose calculator, advisor, history)
  downloadFhir: `تنزيل ${ltr('FHIR')}`,
  fhirDownloadedTitle: `تم تنزيل ملف ${ltr('FHIR')}`,
  fhirDownloaded: (fileName: string) => `${ltr(fileName)}: حزمة ${ltr('FHIR R4')} لسجل المريض.`,
  fhirFailed: `تعذّر تنزيل ملف ${ltr('FHIR')}`,
};

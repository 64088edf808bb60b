/**
 * The patient counselling sheet's dialog (issue 37; docs/clinical-reference.md#8-patient-counselling-contraception).
 * The sheet's own words are clinical/patient-sheet-texts.ts.
 */
export const patientSheetDialog = {
  title: 'Patient sheet: contraception',
  intro:
    'A one-page sheet for the patient: what sugammadex means for her contraception, with her own dates. ' +
    'It is made on this device; nothing is sent.',
  language: 'Language of the sheet',
  languages: { ar: 'Arabic', en: 'English', both: 'Arabic and English on one page' },
  givenAt: 'Time sugammadex was given',
  givenAtHint: 'Now, unless you change it',
  method: 'Contraceptive the patient uses',
  methods: {
    combined_pill: 'Combined pill',
    progestogen_only_pill: 'Progestogen-only pill',
    non_oral_hormonal: 'Vaginal ring, implant, injection, patch or hormonal IUD',
    non_hormonal: 'A non-hormonal method (condoms, copper IUD)',
    none: 'None',
    not_asked: 'Not asked',
  },
  includeInitials: "Print the patient's initials",
  initials: 'Initials',
  initialsHint: 'Initials only, never the MRN',
  hospital: (name: string) => `Hospital on the sheet: ${name}`,
  printedOn: (date: string) => `Date printed: ${date}`,
  keep: 'The sheet ends with "Keep this sheet."',
  download: 'Download PDF',
  cancel: 'Cancel',
  madeTitle: 'Patient sheet downloaded',
  madeDetail: 'Give it to the patient and go through it with her.',
  fixFields: 'Check the fields marked.',
  issues: {
    language: 'Choose the language of the sheet.',
    method: 'Choose the contraceptive, or "Not asked".',
    givenAt: 'Enter the date and time sugammadex was given.',
    printedOn: 'The date of printing is missing.',
    initials: 'Initials: letters, dots and spaces only, at most 8 characters.',
    hospitalName: 'The configured hospital name is too long.',
  },
};

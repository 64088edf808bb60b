// What widgets/shared/ehr/lazy.tsx loads in a session opened from the EHR.
export { EhrPatientBanner } from './EhrPatientBanner.tsx';
export { SendToEhrButton } from './SendToEhrButton.tsx';
export { EhrWeightNote } from './EhrWeightNote.tsx';

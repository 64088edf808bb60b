-- Version 6: the EHR's Patient a local patient came from (a SMART launch, api/smart/routes.ts): the FHIR base
-- URL of the EHR (the launch's `iss`) and the Patient's logical id there. The FHIR export refers to that
-- Patient instead of writing one of its own (docs/fhir.md#patient). Both or neither: a patient made by hand,
-- and every patient stored before this version, has neither.
ALTER TABLE patients
  ADD COLUMN ehr_fhir_base text,
  ADD COLUMN ehr_patient_id text,
  ADD CONSTRAINT patients_ehr_reference_whole CHECK ((ehr_fhir_base IS NULL) = (ehr_patient_id IS NULL));

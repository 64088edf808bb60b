-- Version 7: what a SMART launch keeps beside the EHR's Patient (api/smart/routes.ts): the MRN's identifier at
-- that EHR (system and value; a later launch from the same EHR with it is the same patient) and the body weight
-- the last launch filled in, with when the EHR recorded it and when it was read (a launch that reads no weight
-- says how old the kept one is). JSON: {"identifier": {"system", "value"}?, "weight": {"kg", "recordedAt",
-- "readAt"}?}. Only with an EHR reference; every patient stored before this version has none.
ALTER TABLE patients
  ADD COLUMN ehr_link_details jsonb,
  ADD CONSTRAINT patients_ehr_details_linked CHECK (ehr_link_details IS NULL OR ehr_fhir_base IS NOT NULL);

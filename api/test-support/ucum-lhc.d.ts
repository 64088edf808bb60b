// @lhncbc/ucum-lhc ships no types: the part the FHIR export's tests use (fhir-validation.ts).
declare module '@lhncbc/ucum-lhc' {
  interface UcumLhcUtils {
    validateUnitString(
      unit: string,
      suggest?: boolean,
    ): { status: 'valid' | 'invalid' | 'error'; ucumCode: string | null; msg: string[] };
    convertUnitTo(from: string, value: number, to: string): { status: 'succeeded' | 'failed' | 'error'; toVal: number };
  }
  const ucum: { UcumLhcUtils: { getInstance(): UcumLhcUtils } };
  export default ucum;
}

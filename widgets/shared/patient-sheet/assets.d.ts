// Vite's `?inline` import of a font file: its bytes as a base64 data URL (widgets/shared/patient-sheet/arabic-font.ts).
declare module '*.ttf?inline' {
  const dataUrl: string;
  export default dataUrl;
}

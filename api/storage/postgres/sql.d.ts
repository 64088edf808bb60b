// Vite (the server build and vitest) imports a file's text with the `?raw` suffix.
declare module '*.sql?raw' {
  const text: string;
  export default text;
}

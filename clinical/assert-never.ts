/** Exhaustiveness check for switches over discriminated unions: misuse throws, outcomes never do. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

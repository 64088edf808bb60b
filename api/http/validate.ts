import type * as v from 'valibot';
import { parseWith } from '../../clinical/validation.ts';
import { INVALID_INPUT_MESSAGE } from '../messages.ts';
import type { AppContext } from '../state.ts';

/** Parses untrusted input with a schema, or answers 400 `{ message, issues }` (message = the first issue). */
export function validate<S extends v.GenericSchema>(
  ctx: AppContext,
  schema: S,
  input: unknown,
  fieldOrder: readonly string[] = [],
): v.InferOutput<S> {
  const parsed = parseWith(schema, input, fieldOrder);
  if (parsed.ok) return parsed.value;
  return ctx.throw(400, parsed.issues[0]?.message ?? INVALID_INPUT_MESSAGE, { issues: parsed.issues });
}

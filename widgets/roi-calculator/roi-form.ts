import { shallowEqual, useChanged, useWidgetState } from '../shared/element/widget-state.ts';
import { parseWholeNumber } from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/widget-host/events.ts';

/** The inputs as the form holds them: whole-number fields keep the text typed, sliders a number. */
export interface RoiFormState {
  cases: string;
  orCostPerMinute: number;
  timeNeostigmine: string;
  timeProduct: string;
  baselinePPCRate: number;
}

export function formFromInputs(inputs: RoiInputsDetail): RoiFormState {
  return {
    cases: String(inputs.numberOfCases),
    orCostPerMinute: inputs.orCostPerMinute,
    timeNeostigmine: String(inputs.timeNeostigmine),
    timeProduct: String(inputs.timeProduct),
    baselinePPCRate: inputs.baselinePPCRate,
  };
}

/** docs/product.md §5: the whole-number fields parse with parseWholeNumber (invalid or empty becomes 0). */
export function inputsFromForm(form: RoiFormState): RoiInputsDetail {
  return {
    numberOfCases: parseWholeNumber(form.cases),
    orCostPerMinute: form.orCostPerMinute,
    timeNeostigmine: parseWholeNumber(form.timeNeostigmine),
    timeProduct: parseWholeNumber(form.timeProduct),
    baselinePPCRate: form.baselinePPCRate,
  };
}

/**
 * The form's state, starting from the presets. When a preset changes later (the host sets an
 * attribute), that field takes the new value; the user's other edits stay.
 */
export function useRoiForm(presets: RoiInputsDetail): [RoiFormState, (patch: Partial<RoiFormState>) => void] {
  const fromPresets = formFromInputs(presets);
  const [form, setForm] = useWidgetState('roi.form', fromPresets);
  const changed = useChanged('roi.presets', fromPresets, shallowEqual);
  if (changed) {
    const keys = (Object.keys(fromPresets) as (keyof RoiFormState)[]).filter(
      (key) => fromPresets[key] !== changed.previous[key],
    );
    setForm((current) => ({ ...current, ...Object.fromEntries(keys.map((key) => [key, fromPresets[key]])) }));
  }
  return [form, (patch) => setForm((current) => ({ ...current, ...patch }))];
}

import { useMemo, useState } from 'react';
import { useWidgetState } from '../shared/element/widget-state.ts';
import { cockcroftGault } from '../../clinical/index.ts';
import { fieldBinder, NumberField, SelectField } from '../shared/ui/fields.tsx';
import { parseDecimalText } from '../shared/lang/parse-number.ts';
import { token } from '../shared/ui/theme.ts';
import { Button } from '../shared/ui/ui.tsx';
import { fitColumns } from '../shared/ui/styles.ts';
import { useClinicalTexts, useMessages } from '../shared/widget-host/widget-context.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';

interface HelperForm {
  ageYears: string;
  sex: 'female' | 'male';
  weightKg: string;
  serumCreatinine: string;
  unit: 'umol/L' | 'mg/dL';
}

/** "Calculate from serum creatinine": Cockcroft-Gault, filling the CrCl field when in range. */
export function CreatinineHelper({
  weightText,
  onEstimate,
}: {
  weightText: string;
  onEstimate: (crclMlPerMin: number) => void;
}) {
  const t = useMessages().doseCalculator;
  const clinical = useClinicalTexts();
  // Field names are the estimate's input names, so its issues land on the right field.
  const [form, setForm] = useWidgetState<HelperForm>('crcl.form', {
    ageYears: '',
    sex: 'female',
    weightKg: weightText,
    serumCreatinine: '',
    unit: 'umol/L',
  });
  // What was estimated, not the texts: the issues and the note are written in the element's language of the
  // moment (a live change of `lang` rewrites them).
  const [estimated, setEstimated] = useState<Record<string, unknown> | null>(null);
  const outcome = useMemo(() => estimated && cockcroftGault(estimated, clinical), [estimated, clinical]);
  const issues = outcome?.kind === 'invalid_input' ? outcome.issues : [];
  const note =
    !outcome || outcome.kind === 'invalid_input'
      ? ''
      : outcome.withinCalculatorRange
        ? `${t.crclResult(outcome.creatinineClearanceMlPerMin)}. ${outcome.note}`
        : t.crclOutOfRange(outcome.creatinineClearanceMlPerMin);
  const { bind } = fieldBinder(form, setForm, issues);

  const estimate = () => {
    const input = {
      ageYears: parseDecimalText(form.ageYears),
      weightKg: parseDecimalText(form.weightKg || weightText),
      sex: form.sex,
      serumCreatinine: parseDecimalText(form.serumCreatinine),
      unit: form.unit,
    };
    setEstimated(input);
    const estimate = cockcroftGault(input, clinical);
    if (estimate.kind !== 'invalid_input' && estimate.withinCalculatorRange)
      onEstimate(estimate.creatinineClearanceMlPerMin);
  };

  return (
    <fieldset
      css={{
        border: `1px dashed ${token('--sgx-color-border')}`,
        borderRadius: token('--sgx-radius'),
        padding: '12px',
        margin: 0,
        display: 'grid',
        gap: '10px',
      }}
    >
      <legend css={{ fontWeight: 700, paddingInline: '4px' }}>{t.crclHelperTitle}</legend>
      <div css={{ display: 'grid', gap: '10px', gridTemplateColumns: fitColumns(140) }}>
        <NumberField {...bind('ageYears')} label={t.crclAge} unit={t.unitYears} inputMode="numeric" />
        <SelectField
          {...bind('sex')}
          label={t.crclSex}
          options={[
            { value: 'female', label: t.crclSexes.female },
            { value: 'male', label: t.crclSexes.male },
          ]}
        />
        <NumberField {...bind('weightKg')} label={t.crclWeight} unit={t.unitKg} placeholder={weightText} />
        <NumberField
          {...bind('serumCreatinine')}
          label={t.crclSerumCreatinine}
          unit={form.unit === 'umol/L' ? 'µmol/L' : 'mg/dL'}
        />
        <SelectField
          {...bind('unit')}
          label={t.crclUnit}
          options={[
            { value: 'umol/L', label: 'µmol/L' },
            { value: 'mg/dL', label: 'mg/dL' },
          ]}
        />
      </div>
      <div>
        <Button variant="secondary" onClick={estimate}>
          {t.crclUse}
        </Button>
      </div>
      {note && (
        <p role="status" css={{ margin: 0, fontSize: '0.9em' }}>
          {bidiText(note)}
        </p>
      )}
    </fieldset>
  );
}

import { useState } from 'react';
import { useWidgetState } from '../shared/widget-state.ts';
import { cockcroftGault, type FieldIssue } from '../../clinical/index.ts';
import { NumberField, SelectField } from '../shared/fields.tsx';
import { parseDecimalText } from '../shared/parse-number.ts';
import { token } from '../shared/theme.ts';
import { Button } from '../shared/ui.tsx';
import { useMessages } from '../shared/widget-context.ts';

/** "Calculate from serum creatinine": Cockcroft-Gault, filling the CrCl field when in range. */
export function CreatinineHelper({
  weightText,
  onEstimate,
}: {
  weightText: string;
  onEstimate: (crclMlPerMin: number) => void;
}) {
  const t = useMessages().doseCalculator;
  const [age, setAge] = useWidgetState('crcl.age', '');
  const [sex, setSex] = useWidgetState<'female' | 'male'>('crcl.sex', 'female');
  const [weight, setWeight] = useWidgetState('crcl.weight', weightText);
  const [serumCreatinine, setSerumCreatinine] = useWidgetState('crcl.serumCreatinine', '');
  const [unit, setUnit] = useWidgetState<'umol/L' | 'mg/dL'>('crcl.unit', 'umol/L');
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [note, setNote] = useState('');
  const errorFor = (field: string) => issues.find((issue) => issue.field === field)?.message;

  const estimate = () => {
    const outcome = cockcroftGault({
      ageYears: parseDecimalText(age),
      weightKg: parseDecimalText(weight || weightText),
      sex,
      serumCreatinine: parseDecimalText(serumCreatinine),
      unit,
    });
    if (outcome.kind === 'invalid_input') {
      setIssues(outcome.issues);
      setNote('');
      return;
    }
    setIssues([]);
    const value = outcome.creatinineClearanceMlPerMin;
    if (outcome.withinCalculatorRange) {
      onEstimate(value);
      setNote(`${t.crclResult(value)}. ${outcome.note}`);
    } else {
      setNote(t.crclOutOfRange(value));
    }
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
      <div css={{ display: 'grid', gap: '10px', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))' }}>
        <NumberField
          name="crcl-age"
          label={t.crclAge}
          unit={t.unitYears}
          value={age}
          onChange={setAge}
          error={errorFor('ageYears')}
          inputMode="numeric"
        />
        <SelectField
          name="crcl-sex"
          label={t.crclSex}
          value={sex}
          onChange={setSex}
          options={[
            { value: 'female', label: t.crclSexes.female },
            { value: 'male', label: t.crclSexes.male },
          ]}
        />
        <NumberField
          name="crcl-weight"
          label={t.crclWeight}
          unit={t.unitKg}
          value={weight}
          placeholder={weightText}
          onChange={setWeight}
          error={errorFor('weightKg')}
        />
        <NumberField
          name="crcl-scr"
          label={t.crclSerumCreatinine}
          unit={unit === 'umol/L' ? 'µmol/L' : 'mg/dL'}
          value={serumCreatinine}
          onChange={setSerumCreatinine}
          error={errorFor('serumCreatinine')}
        />
        <SelectField
          name="crcl-unit"
          label={t.crclUnit}
          value={unit}
          onChange={setUnit}
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
          {note}
        </p>
      )}
    </fieldset>
  );
}

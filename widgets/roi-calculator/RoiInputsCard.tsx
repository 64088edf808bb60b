import { useId } from 'react';
import { ROI_OR_COST_SLIDER_SAR_PER_MIN, ROI_PPC_RATE_SLIDER_PERCENT, ROI_RISK_RATIO } from '../../clinical/index.ts';
import { controlCss, NumberField } from '../shared/ui/fields.tsx';
import { token } from '../shared/ui/theme.ts';
import { useMessages } from '../shared/widget-host/widget-context.ts';
import { RangeField } from './RangeField.tsx';
import type { RoiFormState } from './roi-form.ts';
import { fitColumns, formCardCss } from '../shared/ui/styles.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';

/** docs/product.md §3 and §5: cases and times as whole-number text, two sliders, and the fixed risk ratio. */
export function RoiInputsCard({
  form,
  onChange,
}: {
  form: RoiFormState;
  onChange: (patch: Partial<RoiFormState>) => void;
}) {
  const t = useMessages().roi;
  const headingId = useId();
  const riskRatioId = useId();
  const bind = <K extends keyof RoiFormState>(name: K) => ({
    name,
    value: form[name],
    onChange: (value: RoiFormState[K]) => onChange({ [name]: value } as Partial<RoiFormState>),
  });
  return (
    <form
      part="form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => event.preventDefault()}
      css={{
        ...formCardCss('16px'),
        minInlineSize: 0,
      }}
    >
      <h3 id={headingId} css={{ margin: 0, fontSize: '1.1em' }}>
        {t.inputsTitle}
      </h3>
      <NumberField {...bind('cases')} label={t.numberOfCases} hint={t.numberOfCasesHint} inputMode="numeric" />
      <RangeField
        {...bind('orCostPerMinute')}
        label={t.orCostPerMinute}
        unit={t.unitSarPerMin}
        {...ROI_OR_COST_SLIDER_SAR_PER_MIN}
        display={`${form.orCostPerMinute} ${t.unitSar}`}
        valueText={t.sarPerMinute(form.orCostPerMinute)}
      />
      <div css={{ display: 'grid', gap: '16px', gridTemplateColumns: fitColumns(200) }}>
        <NumberField
          {...bind('timeNeostigmine')}
          label={t.timeNeostigmine}
          unit={t.unitMin}
          hint={t.wholeNumberHint}
          inputMode="numeric"
        />
        <NumberField
          {...bind('timeProduct')}
          label={t.timeProduct}
          unit={t.unitMin}
          hint={t.wholeNumberHint}
          inputMode="numeric"
        />
      </div>
      <RangeField
        {...bind('baselinePPCRate')}
        label={t.baselinePpcRate}
        unit={t.unitPercent}
        {...ROI_PPC_RATE_SLIDER_PERCENT}
        display={`${form.baselinePPCRate}${t.unitPercent}`}
        valueText={t.percentValue(form.baselinePPCRate)}
        hint={t.baselinePpcRateHint}
      />
      <div part="field" css={{ display: 'grid', gap: '4px' }}>
        <label htmlFor={riskRatioId} css={{ fontWeight: 600 }}>
          {bidiText(t.riskRatio)}
        </label>
        <input
          id={riskRatioId}
          name="riskRatio"
          type="text"
          value={String(ROI_RISK_RATIO)}
          disabled
          readOnly
          aria-describedby={`${riskRatioId}-note`}
          css={controlCss}
        />
        <span id={`${riskRatioId}-note`} css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>
          {bidiText(t.riskRatioNote)}
        </span>
      </div>
    </form>
  );
}

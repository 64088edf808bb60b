import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { accountApi } from '../shared/session/account-api-loader.ts';
import { isAuthenticated } from '../shared/session/session-state.ts';
import { useSession } from '../shared/session/use-session.ts';
import { computeRoi } from '../../clinical/index.ts';
import { token } from '../shared/ui/theme.ts';
import { Button, Card } from '../shared/ui/ui.tsx';
import { roi as roiEn } from '../shared/lang/messages/roi.ts';
import { useMessages, useWidgetHost } from '../shared/widget-host/widget-context.ts';
import { buildRoiMailto, mailNavigation } from './mail-report.ts';
import { resolveRoiPresets, type RoiPresetAttributes } from './presets.ts';
import { inputsFromForm, useRoiForm } from './roi-form.ts';
import { RoiInputsCard } from './RoiInputsCard.tsx';
import { RoiImpactSummary, RoiResultCards } from './RoiResults.tsx';
import { outlineLinkCss, twoColumnsCss } from '../shared/ui/styles.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';
import { loadOnce } from '../shared/loading/load-once.ts';
import { loadJsPdf } from '../shared/pdf/load-jspdf.ts';
// The ROI calculator's texts in English (only its own), carried with its code.
import './catalogue.ts';

/** The report's layout, downloaded with jsPDF on the first "Download PDF". */
const loadReport = loadOnce(() => import('./pdf-report.ts'), import.meta.url);

export interface RoiCalculatorProps extends RoiPresetAttributes {
  /** The dose calculator in the host page that "Calculate Dose" scrolls to (an id, with or without '#'). */
  calculatorTarget?: string;
  /** The HCP guide that "Download HCP Guide" downloads. */
  guideHref?: string;
  /** The API origin, for recording a signed-in clinician's calculations ("" = same origin). */
  apiBase?: string;
}

/** A signed-in clinician's ROI inputs go to their history once they have stopped changing for this long. */
export const ROI_RECORD_AFTER_MS = 2000;

const DEFAULT_CALCULATOR_TARGET = '#calculator';
const DEFAULT_GUIDE_HREF = '/hcp-guide.pdf';

/** docs/product.md §2–5, §7–9: the ROI and safety calculator. Computes locally; needs no API. */
export function RoiCalculator({
  cases,
  orCostPerMinute,
  timeNeostigmine,
  timeProduct,
  baselinePpcRate,
  calculatorTarget,
  guideHref,
  apiBase = '',
}: RoiCalculatorProps) {
  const messages = useMessages();
  const t = messages.roi;
  const host = useWidgetHost();
  const headingId = useId();
  const [form, update] = useRoiForm(
    resolveRoiPresets({ cases, orCostPerMinute, timeNeostigmine, timeProduct, baselinePpcRate }),
  );
  const parsed = inputsFromForm(form);
  const {
    numberOfCases,
    orCostPerMinute: costPerMin,
    timeNeostigmine: neoMin,
    timeProduct: productMin,
    baselinePPCRate,
  } = parsed;
  // Keyed on the parsed numbers: typing "12.7" after "12" changes nothing, so nothing is recomputed or sent.
  const inputs = useMemo(
    () => ({
      numberOfCases,
      orCostPerMinute: costPerMin,
      timeNeostigmine: neoMin,
      timeProduct: productMin,
      baselinePPCRate,
    }),
    [numberOfCases, costPerMin, neoMin, productMin, baselinePPCRate],
  );
  const result = useMemo(() => computeRoi(inputs), [inputs]);
  const [generating, setGenerating] = useState(false);

  useEffect(() => {
    host.emit('sgx-roi-changed', { inputs, result });
  }, [host, inputs, result]);

  // Signed in, a calculation the user made (not the untouched defaults) is recorded in their history
  // once the inputs settle; the server recomputes it. Quick Use records nothing.
  const signedIn = useSession(isAuthenticated, apiBase);
  const initialInputs = useRef(inputs);
  useEffect(() => {
    if (!signedIn || inputs === initialInputs.current) return;
    const timer = setTimeout(() => {
      accountApi()
        .then((api) => api.recordCalculation(apiBase, 'roi_calculator', inputs))
        .catch(() => {
          // recording is best effort here: the figures on screen are computed locally either way
        });
    }, ROI_RECORD_AFTER_MS);
    return () => clearTimeout(timer);
  }, [signedIn, inputs, apiBase]);

  const downloadPdf = async () => {
    setGenerating(true);
    try {
      // jsPDF (~125 KiB gzip) and the report's layout are loaded here, on the click, and never at start-up.
      const [{ jsPDF }, { buildRoiReport, ROI_REPORT_FILE_NAME }] = await Promise.all([loadJsPdf(), loadReport()]);
      const doc = buildRoiReport(jsPDF, inputs, result, new Date(), roiEn);
      doc.save(ROI_REPORT_FILE_NAME);
    } catch (error) {
      console.error(error);
      window.alert(t.pdfError);
      host.emit('sgx-error', {
        source: 'roi-calculator',
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setGenerating(false);
    }
  };

  const scrollToCalculator = () => {
    const id = (calculatorTarget?.trim() || DEFAULT_CALCULATOR_TARGET).replace(/^#/, '');
    document.getElementById(id)?.scrollIntoView({ behavior: 'smooth' });
  };

  return (
    <section
      aria-labelledby={headingId}
      part="container"
      css={{ containerType: 'inline-size', display: 'grid', gap: '20px', textAlign: 'start' }}
    >
      <header>
        <h2 id={headingId} css={{ margin: 0, fontSize: '1.5em', lineHeight: 1.25 }}>
          {bidiText(t.title)}
        </h2>
        <p css={{ margin: 0, marginBlockStart: '4px', color: token('--sgx-color-muted') }}>{bidiText(t.subtitle)}</p>
      </header>
      <div css={twoColumnsCss(760)}>
        <RoiInputsCard form={form} onChange={update} />
        <div css={{ display: 'grid', gap: '16px', minInlineSize: 0 }}>
          <RoiResultCards result={result} />
          <RoiImpactSummary inputs={inputs} result={result} />
          <div
            part="actions"
            css={{ display: 'flex', flexWrap: 'wrap', gap: '10px', '@media print': { display: 'none' } }}
          >
            <Button busy={generating} disabled={generating} onClick={() => void downloadPdf()}>
              {t.downloadPdf}
            </Button>
            <Button variant="secondary" onClick={() => mailNavigation.open(buildRoiMailto(inputs, result, t))}>
              {t.emailReport}
            </Button>
          </div>
        </div>
      </div>
      <Card title={t.ctaTitle} part="cta">
        <p css={{ margin: 0, marginBlockEnd: '12px' }}>{t.ctaText}</p>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: '10px' }}>
          <Button onClick={scrollToCalculator}>{t.calculateDose}</Button>
          <a
            href={guideHref?.trim() || DEFAULT_GUIDE_HREF}
            download
            part="guide-link"
            css={{ ...outlineLinkCss, minBlockSize: '44px', paddingInline: '18px', paddingBlock: '8px' }}
          >
            {t.downloadGuide}
          </a>
        </div>
      </Card>
      <p part="disclaimer" role="note" css={{ margin: 0, fontSize: '0.85em', color: token('--sgx-color-muted') }}>
        {bidiText(t.disclaimer)}
      </p>
    </section>
  );
}

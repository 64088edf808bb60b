import { useEffect, useState, useSyncExternalStore } from 'react';
import { usePageContent } from '../content/context.ts';
import { scrollToSection } from '../scroll.ts';
import { buttonStyle, cardStyle, colour, container, srOnly } from '../styles.ts';
import { PdfLanguageNote, usePdfHrefLang } from './Bidi.tsx';
import { formatTof, nextTofHundredths, TOF_END_HUNDREDTHS, TOF_INTERVAL_MS, TOF_START_HUNDREDTHS } from '../tof.ts';
import { bidiText } from '../../widgets/shared/bidi-text.tsx';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';
const subscribeToReducedMotion = (onChange: () => void) => {
  const list = window.matchMedia?.(REDUCED_MOTION_QUERY);
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};

/**
 * Whether the user asked for reduced motion (follows changes). The prerendered page assumes not;
 * React hydrates with that and then re-renders with the browser's answer.
 */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeToReducedMotion,
    () => window.matchMedia?.(REDUCED_MOTION_QUERY).matches ?? false,
    () => false,
  );
}

/** docs/product.md §2/§9: 0.40 → 0.90 in 0.01 steps every 50 ms, then again; still at the target for reduced motion. */
export function TofDisplay() {
  const { hero } = usePageContent();
  const reduce = usePrefersReducedMotion();
  const [hundredths, setHundredths] = useState(TOF_START_HUNDREDTHS);
  useEffect(() => {
    if (reduce) return;
    const timer = setInterval(() => setHundredths(nextTofHundredths), TOF_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [reduce]);
  const value = reduce ? TOF_END_HUNDREDTHS : hundredths;
  const reached = value >= 90;
  return (
    <div css={[cardStyle, { display: 'grid', gap: 6, textAlign: 'center', minWidth: 220 }]}>
      <span css={{ fontSize: '0.9rem', color: colour.muted, fontWeight: 600 }}>{hero.tofLabel}</span>
      <span
        data-testid="tof-value"
        aria-hidden="true"
        css={{
          fontSize: '3rem',
          fontWeight: 800,
          fontVariantNumeric: 'tabular-nums',
          lineHeight: 1.1,
          color: reached ? colour.primary : colour.text,
        }}
      >
        {formatTof(value)}
      </span>
      <span css={srOnly}>{`${formatTof(TOF_START_HUNDREDTHS)} – ${formatTof(TOF_END_HUNDREDTHS)}`}</span>
      <span css={{ fontSize: '0.9rem' }}>{bidiText(hero.tofTarget)}</span>
      <div aria-hidden="true" css={{ height: 8, borderRadius: 4, background: '#e2e8f0', overflow: 'hidden' }}>
        <div css={{ height: '100%', background: colour.primary, transition: 'none' }} style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

export function Hero() {
  const { hero } = usePageContent();
  const pdfHrefLang = usePdfHrefLang();
  return (
    <section
      id="hero"
      aria-labelledby="hero-heading"
      css={{ paddingBlock: '48px 56px', background: 'linear-gradient(180deg, #ecfdf5 0%, #f8fafc 100%)' }}
    >
      <div
        css={[
          container,
          {
            display: 'grid',
            gap: 32,
            alignItems: 'center',
            '@media (min-width: 900px)': { gridTemplateColumns: '1.2fr 1fr' },
          },
        ]}
      >
        <div css={{ display: 'grid', gap: 18 }}>
          <h1 id="hero-heading" css={{ fontSize: 'clamp(2rem, 5vw, 3.1rem)', margin: 0 }}>
            {bidiText(hero.headline)}
          </h1>
          <p css={{ margin: 0, fontSize: '1.15rem', color: colour.muted, maxWidth: '60ch' }}>
            {bidiText(hero.subtitle)}
          </p>
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 12 }}>
            <button type="button" css={buttonStyle('primary')} onClick={() => scrollToSection('calculator')}>
              {hero.calculatorButton}
            </button>
            <a href="/hcp-guide.pdf" download {...pdfHrefLang} css={buttonStyle('secondary')}>
              {hero.guideButton}
              <PdfLanguageNote />
            </a>
          </div>
          <article css={[cardStyle, { borderInlineStart: `5px solid ${colour.primary}` }]}>
            <h2 css={{ margin: '0 0 6px', fontSize: '1.1rem' }}>{bidiText(hero.story.title)}</h2>
            <p css={{ margin: 0 }}>{bidiText(hero.story.text)}</p>
          </article>
          <p css={{ margin: 0, fontSize: '0.9rem', color: colour.muted }}>{bidiText(hero.decisionSupport)}</p>
        </div>
        <div css={{ display: 'grid', gap: 16, justifyItems: 'center' }}>
          <img
            src="/product-vial.svg"
            alt={hero.imageAlt}
            width={320}
            height={360}
            fetchPriority="high"
            css={{ width: 'min(320px, 80vw)', height: 'auto', aspectRatio: '320 / 360' }}
          />
          <p
            css={{
              margin: 0,
              fontWeight: 700,
              padding: '6px 14px',
              borderRadius: 999,
              background: '#fff',
              border: `1px solid ${colour.border}`,
            }}
          >
            {bidiText(hero.productLabel)}
          </p>
          <TofDisplay />
        </div>
      </div>
    </section>
  );
}

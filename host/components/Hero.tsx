import { useEffect, useLayoutEffect, useState } from 'react';
import { usePageContent } from '../content/context.ts';
import { scrollToSection } from '../scroll.ts';
import { buttonStyle, cardStyle, colour, container, srOnly } from '../styles.ts';
import { PdfLanguageNote, usePdfHrefLang } from './Bidi.tsx';
import { formatTof, nextTofHundredths, TOF_END_HUNDREDTHS, TOF_INTERVAL_MS, TOF_START_HUNDREDTHS } from '../tof.ts';
import { bidiText } from '../../widgets/shared/ui/bidi-text.tsx';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * Whether the user asked for reduced motion (follows changes). The prerendered page assumes not, and so does
 * the first render in the browser, which hydrates it: Preact's hydration adopts the served attributes without
 * comparing them, so a first render that differed would leave the served classes in place. The browser's
 * answer comes in the render after.
 */
function usePrefersReducedMotion(): boolean {
  const [prefers, setPrefers] = useState(false);
  useEffect(() => {
    const list = window.matchMedia?.(REDUCED_MOTION_QUERY);
    if (!list) return;
    const update = () => setPrefers(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, []);
  return prefers;
}

/**
 * docs/product.md §2/§9: 0.40 → 0.90 in 0.01 steps every 50 ms, then again; still at the target for reduced motion.
 * It moves without end, so a button beside it pauses and resumes it (WCAG 2.2 SC 2.2.2, level A): until the
 * reader chooses, it follows the motion preference; once they have, their choice holds. The button's label says
 * what it will do ("Pause animation" / "Play animation"), so its name is its state.
 */
export function TofDisplay() {
  const { hero } = usePageContent();
  const reduce = usePrefersReducedMotion();
  const [hundredths, setHundredths] = useState(TOF_START_HUNDREDTHS);
  const [choice, setChoice] = useState<'paused' | 'playing' | null>(null);
  const paused = choice === null ? reduce : choice === 'paused';
  // On commit, not after paint: once "Pause" is pressed, not one more step.
  useLayoutEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setHundredths(nextTofHundredths), TOF_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused]);
  // Still by preference: the target itself; paused by the reader: where it was.
  const value = paused && choice === null ? TOF_END_HUNDREDTHS : hundredths;
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
      <TofPauseButton paused={paused} onToggle={() => setChoice(paused ? 'playing' : 'paused')} />
    </div>
  );
}

/**
 * Both labels take the same cell, the one not in use hidden (and so out of the accessible name): the button keeps
 * its size whichever it shows, so turning still for reduced motion after hydration moves nothing. Hidden when
 * scripts are off (host/index.html), where the figure does not move.
 */
function TofPauseButton({ paused, onToggle }: { paused: boolean; onToggle: () => void }) {
  const { hero } = usePageContent();
  const label = (text: string, shown: boolean) => (
    <span
      aria-hidden={shown ? undefined : 'true'}
      css={{ gridArea: '1 / 1', visibility: shown ? 'visible' : 'hidden' }}
    >
      {text}
    </span>
  );
  return (
    <button
      type="button"
      data-tof-pause=""
      onClick={onToggle}
      css={[
        buttonStyle('secondary'),
        { marginBlockStart: 6, paddingBlock: 6, fontSize: '0.95rem', justifySelf: 'center' },
      ]}
    >
      <svg aria-hidden="true" width="14" height="14" viewBox="0 0 14 14" fill="currentColor" focusable="false">
        {paused ? <path d="M3 1.5v11l9-5.5z" /> : <path d="M2.5 1.5h3.25v11H2.5zm5.75 0h3.25v11H8.25z" />}
      </svg>
      <span css={{ display: 'grid' }}>
        {label(hero.tofPause, !paused)}
        {label(hero.tofPlay, paused)}
      </span>
    </button>
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

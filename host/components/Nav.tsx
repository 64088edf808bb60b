import { useEffect, useState } from 'react';
import { loadEmergencyCard } from '../../widgets/shared/emergency-card/load.ts';
import { usePageContent } from '../content/context.ts';
import {
  barBottom,
  chosenSection,
  onChosenSectionChange,
  releaseChosenSectionOnUserScroll,
  scrollToSection,
} from '../scroll.ts';
import { colour, DESKTOP_NAV_MIN_WIDTH_PX, NAV_HEIGHT_PX, srOnly } from '../styles.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';

const MOBILE_QUERY = `(max-width: ${DESKTOP_NAV_MIN_WIDTH_PX - 1}px)`;
const DESKTOP = `@media not ${MOBILE_QUERY}`;
const MOBILE = `@media ${MOBILE_QUERY}`;

/** A link of the bar: the section links and the language switch look and take focus alike. */
const barLink = {
  display: 'block',
  padding: '8px 9px',
  borderRadius: 8,
  color: colour.text,
  fontSize: '0.92rem',
  fontWeight: 600,
  whiteSpace: 'nowrap',
  textDecoration: 'none',
  '&:hover': { background: colour.tint },
  [MOBILE]: { padding: '12px 14px', fontSize: '1rem' },
} as const;

/** Below 421 px the menu button shows its sign only (its name stays for screen readers). */
const NARROW = '@media (max-width: 420px)';
/**
 * Where the bar is short of room for the Emergency button's word: it shows its sign only (the word stays its
 * accessible name), the site's name is for screen readers only and the bar's gaps narrow, so that it keeps one
 * row; narrower than most phones (under 360 px), the logo gives way too.
 */
const COMPACT = '@media (max-width: 799px)';
const TINY = '@media (max-width: 359px)';

/**
 * docs/product.md §2: the fixed top bar with the ten labels, the current section marked, a menu on small
 * screens; the link to the other language beside the access control (in the menu on small screens).
 */
export function Nav() {
  const { nav, site, chrome } = usePageContent();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState<string | null>(null);

  useEffect(() => {
    // The current section: the one the user asked for (a link to it, the URL's hash, a nav choice)
    // until they scroll by themselves; otherwise the last one whose top has passed just below the
    // bar, or the last section once the page cannot scroll further (a short final section never
    // reaches the top).
    let frame = 0;
    const update = () => {
      frame = 0;
      const chosen = chosenSection();
      if (chosen) {
        setCurrent(chosen);
        return;
      }
      const below = barBottom() + 8;
      const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      let found: string | null = null;
      for (const item of nav) {
        const section = document.getElementById(item.target);
        if (section && section.getBoundingClientRect().top <= below) found = item.target;
      }
      setCurrent(atEnd ? nav[nav.length - 1]!.target : found);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    const stopReleasing = releaseChosenSectionOnUserScroll();
    const stopFollowing = onChosenSectionChange(onScroll);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      stopReleasing();
      stopFollowing();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [nav]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const go = (target: string) => {
    setOpen(false);
    scrollToSection(target);
  };

  // The emergency card (widgets/shared/emergency-card/): its code loads on the first click; the page's language,
  // and the chosen patient's weight when the account area has one.
  const openEmergencyCard = (opener: HTMLElement) => {
    setOpen(false);
    loadEmergencyCard().then(
      (card) => card.openEmergencyCard({ lang: site.lang, opener }),
      () => window.alert(chrome.emergencyUnavailable),
    );
  };

  return (
    <header
      role="banner"
      css={{
        position: 'fixed',
        insetBlockStart: 0,
        insetInline: 0,
        zIndex: 50,
        background: 'rgba(255,255,255,0.97)',
        borderBlockEnd: `1px solid ${colour.border}`,
        boxShadow: '0 1px 6px rgb(15 23 42 / 0.06)',
      }}
    >
      <div
        css={{
          maxWidth: 1320,
          marginInline: 'auto',
          paddingInline: 16,
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          columnGap: 12,
          [COMPACT]: { columnGap: 8 },
          [TINY]: { minHeight: NAV_HEIGHT_PX },
        }}
      >
        <a
          href="#hero"
          onClick={(event) => {
            event.preventDefault();
            go('hero');
          }}
          css={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            minHeight: NAV_HEIGHT_PX,
            fontWeight: 800,
            color: colour.text,
            textDecoration: 'none',
            flex: 'none',
            [TINY]: { display: 'none' },
          }}
        >
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span
            css={{
              [COMPACT]: srOnly,
            }}
          >
            {site.name}
          </span>
        </a>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="site-menu"
          onClick={() => setOpen((value) => !value)}
          css={{
            order: 3,
            minHeight: 44,
            minWidth: 44,
            padding: '8px 12px',
            border: `1.5px solid ${colour.border}`,
            borderRadius: 10,
            background: '#fff',
            font: 'inherit',
            fontWeight: 600,
            cursor: 'pointer',
            [DESKTOP]: { display: 'none' },
          }}
        >
          <span aria-hidden="true">{open ? '✕' : '☰'}</span>
          {/* On the narrowest phones only the icon shows (the name stays for screen readers): the bar keeps one
              row in both languages, as tall as the page's offset for it (--nav-height). */}
          <span css={{ [NARROW]: srOnly }}>{` ${chrome.menuButton}`}</span>
        </button>
        {/* The menu on small screens; from 1100 px it has no box and its parts sit in the bar's rows. */}
        <div
          id="site-menu"
          css={{
            [DESKTOP]: { display: 'contents' },
            [MOBILE]: {
              display: open ? 'block' : 'none',
              position: 'absolute',
              // just below the bar, however many rows it has (the header is its containing block)
              insetBlockStart: '100%',
              insetInline: 0,
              background: '#fff',
              borderBlockEnd: `1px solid ${colour.border}`,
              boxShadow: '0 10px 20px rgb(15 23 42 / 0.12)',
              maxHeight: `calc(100vh - ${NAV_HEIGHT_PX}px)`,
              overflowY: 'auto',
            },
          }}
        >
          <nav
            aria-label={chrome.navLabel}
            css={{
              order: 4,
              [DESKTOP]: {
                display: 'block',
                flexBasis: '100%',
                height: 48,
                borderBlockStart: `1px solid ${colour.border}`,
              },
            }}
          >
            <ul
              css={{
                listStyle: 'none',
                margin: 0,
                padding: 0,
                display: 'flex',
                gap: 2,
                justifyContent: 'center',
                alignItems: 'center',
                height: '100%',
                flexWrap: 'nowrap',
                [MOBILE]: { flexDirection: 'column', padding: 8 },
              }}
            >
              {nav.map((item) => (
                <li key={item.target}>
                  <a
                    href={`#${item.target}`}
                    aria-current={current === item.target ? 'true' : undefined}
                    onClick={(event) => {
                      event.preventDefault();
                      go(item.target);
                    }}
                    css={[
                      barLink,
                      {
                        '&[aria-current="true"]': {
                          color: colour.primaryDark,
                          background: colour.tint,
                          boxShadow: `inset 0 -3px 0 ${colour.primary}`,
                        },
                      },
                    ]}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <LanguageSwitch
            section={current}
            css={[
              barLink,
              {
                [DESKTOP]: { flex: 'none', order: 2, marginInlineStart: 'auto' },
                [MOBILE]: {
                  textAlign: 'center',
                  marginInline: 8,
                  marginBlockEnd: 8,
                  borderBlockStart: `1px solid ${colour.border}`,
                  borderRadius: 0,
                },
              },
            ]}
          />
        </div>
        {/* Always in the bar, outside <nav> and the menu, on phones too: red, before the access control. */}
        <button
          type="button"
          aria-haspopup="dialog"
          data-emergency=""
          title={chrome.emergency}
          onClick={(event) => openEmergencyCard(event.currentTarget)}
          css={{
            order: 2,
            flex: 'none',
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 6,
            minHeight: 44,
            minWidth: 44,
            padding: '8px 14px',
            border: '2px solid #7f1d1d',
            borderRadius: 10,
            background: '#b91c1c',
            color: '#fff',
            font: 'inherit',
            fontWeight: 800,
            cursor: 'pointer',
            '&:hover': { background: '#991b1b' },
            '&:focus-visible': { outline: `3px solid ${colour.focus}`, outlineOffset: 2 },
            [MOBILE]: { marginInlineStart: 'auto' },
            [DESKTOP]: { marginInlineStart: 4 },
            [COMPACT]: { padding: '8px 10px' },
          }}
        >
          <span aria-hidden="true" css={{ fontSize: '1.25em', lineHeight: 1 }}>
            ⚠
          </span>
          <span css={{ [COMPACT]: srOnly }}>{chrome.emergency}</span>
        </button>
        <div css={{ flex: 'none', order: 2, marginInlineStart: 4, [COMPACT]: { marginInlineStart: 0 } }}>
          <sgx-access-portal />
        </div>
      </div>
    </header>
  );
}

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useMessages, useWidgetHost, type WidgetHost } from '../widget-host/widget-context.ts';
import { token } from './theme.ts';
import { closeButtonCss } from './styles.ts';
import { bidi } from './bidi-text.tsx';

// docs/product.md §9: one toast at a time, shown 5000 ms, swipe right past 50 px to dismiss, F8 focuses the
// region labelled "Notifications", at most 420 px wide.
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_MAX_WIDTH_PX = 420;
export const TOAST_HOTKEY = 'F8';

export type ToastVariant = 'default' | 'success' | 'destructive';
/**
 * A toast's text: fixed (a name, a file name, the server's words), or taken from the element's catalogue
 * each time it renders (`({ messages }) => messages.doseCalculator.invalidInputTitle`), so that a toast on
 * screen follows a live change of the element's language.
 */
export type ToastText = string | ((host: WidgetHost) => string);
export interface ToastOptions {
  title: ToastText;
  description?: ToastText;
  variant?: ToastVariant;
}
interface ShownToast extends ToastOptions {
  id: number;
}

interface ToastState {
  show: (options: ToastOptions) => void;
  toast: ShownToast | null;
  dismiss: () => void;
  /** An open modal dialog takes the region (the rest of the page is inert and under it); returns the release. */
  claim: () => () => void;
}

const ToastContext = createContext<ToastState>({
  show: () => {},
  toast: null,
  dismiss: () => {},
  claim: () => () => {},
});
/** Shows a toast in this element; a new toast replaces the one shown. */
export const useToast = () => useContext(ToastContext).show;

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ShownToast | null>(null);
  const [claims, setClaims] = useState(0);
  const show = useCallback((options: ToastOptions) => setToast({ ...options, id: nextId++ }), []);
  const dismiss = useCallback(() => setToast(null), []);
  const claim = useCallback(() => {
    setClaims((count) => count + 1);
    return () => setClaims((count) => count - 1);
  }, []);
  const value = useMemo(() => ({ show, toast, dismiss, claim }), [show, toast, dismiss, claim]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {claims === 0 && <ToastRegion toast={toast} onDismiss={dismiss} />}
    </ToastContext.Provider>
  );
}

/**
 * The toast region inside an open modal dialog: a modal dialog sits in the top layer and makes the
 * rest of the page inert, so toasts shown while it is open must be inside it to be seen and used.
 */
export function DialogToastRegion() {
  const { toast, dismiss, claim } = useContext(ToastContext);
  useEffect(() => claim(), [claim]);
  return <ToastRegion toast={toast} onDismiss={dismiss} />;
}

function ToastRegion({ toast, onDismiss }: { toast: ShownToast | null; onDismiss: () => void }) {
  const messages = useMessages();
  const region = useRef<HTMLElement>(null);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY && toast) {
        event.preventDefault();
        region.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [toast]);

  useEffect(() => {
    if (!toast || paused) return;
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, paused, onDismiss]);

  return (
    <section
      ref={region}
      aria-label={messages.common.notifications}
      tabIndex={-1}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      css={{
        position: 'fixed',
        insetBlockEnd: '16px',
        insetInlineEnd: '16px',
        zIndex: 2147483000,
        inlineSize: `min(${TOAST_MAX_WIDTH_PX}px, calc(100vw - 32px))`,
        maxInlineSize: `${TOAST_MAX_WIDTH_PX}px`,
        outline: 'none',
        pointerEvents: toast ? 'auto' : 'none',
      }}
    >
      {/* one toast at a time: no list (an <ol> whose item is an alert is no list to assistive technology) */}
      {toast && <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} onHover={setPaused} />}
    </section>
  );
}

function ToastItem({
  toast,
  onDismiss,
  onHover,
}: {
  toast: ShownToast;
  onDismiss: () => void;
  onHover: (paused: boolean) => void;
}) {
  const messages = useMessages();
  const host = useWidgetHost();
  const text = (value: ToastText) => (typeof value === 'function' ? value(host) : value);
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);
  const destructive = toast.variant === 'destructive';
  const colours = useMemo(
    () =>
      destructive
        ? { background: token('--sgx-color-danger'), color: '#ffffff', border: token('--sgx-color-danger') }
        : {
            background: token('--sgx-color-surface'),
            color: token('--sgx-color-text'),
            border: toast.variant === 'success' ? token('--sgx-color-success') : token('--sgx-color-border'),
          },
    [destructive, toast.variant],
  );
  return (
    <div
      part="toast"
      role={destructive ? 'alert' : 'status'}
      aria-atomic="true"
      data-variant={toast.variant ?? 'default'}
      onPointerEnter={() => onHover(true)}
      onPointerLeave={() => onHover(false)}
      onPointerDown={(event) => {
        start.current = event.clientX;
        event.currentTarget.setPointerCapture?.(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
      }}
      onPointerUp={() => {
        if (offset > TOAST_SWIPE_THRESHOLD_PX) onDismiss();
        start.current = null;
        setOffset(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
      css={{
        display: 'grid',
        gridTemplateColumns: '1fr auto',
        gap: '8px',
        padding: '14px 16px',
        borderRadius: token('--sgx-radius'),
        border: `1px solid ${colours.border}`,
        borderInlineStartWidth: '6px',
        background: colours.background,
        color: colours.color,
        boxShadow: '0 10px 25px rgb(15 23 42 / 0.18)',
        touchAction: 'pan-y',
        userSelect: 'none',
      }}
      style={{
        transform: offset ? `translateX(${offset}px)` : undefined,
        opacity: offset ? Math.max(0.3, 1 - offset / 200) : undefined,
      }}
    >
      <div>
        <div css={{ fontWeight: 700 }}>{bidi(text(toast.title))}</div>
        {toast.description && (
          // descriptions often carry the server's own words (a failed call): shown in the element's language
          <div css={{ fontSize: '0.925em', marginBlockStart: '2px' }}>
            {bidi(host.serverMessage(text(toast.description)))}
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={messages.common.dismiss}
        css={{
          ...closeButtonCss,
          inlineSize: '28px',
          blockSize: '28px',
          display: 'grid',
          placeItems: 'center',
          fontSize: '18px',
        }}
      >
        ×
      </button>
    </div>
  );
}

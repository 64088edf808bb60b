// Measurement only (never served): the shared runtime every element carries (React, r2wc, Emotion,
// defineWidget, the theme, toasts, the session hook; the session store itself loads on demand) with a
// trivial element, so that an element's own code is its first download minus this one's (issue 13 budgets).
import { createElement } from 'react';
import { defineWidget } from '../shared/element/define-widget.tsx';
import { isAuthenticated } from '../shared/session/session-state.ts';
import { Button } from '../shared/ui/ui.tsx';
import { useSession } from '../shared/session/use-session.ts';

function Baseline() {
  const signedIn = useSession(isAuthenticated);
  return createElement(Button, null, signedIn ? 'yes' : 'no');
}
defineWidget('sgx-baseline', Baseline, {});

// The public surface of widgets/: side-effect free (importing it defines nothing; see register.ts).
export { defineDoseCalculator, DOSE_CALCULATOR_TAG } from './dose-calculator/element.ts';
export { defineBradycardiaAdvisor, BRADYCARDIA_ADVISOR_TAG } from './bradycardia-advisor/element.ts';
export { defineRoiCalculator, ROI_CALCULATOR_TAG } from './roi-calculator/element.ts';
export { defineAccessPortal, ACCESS_PORTAL_TAG } from './access-portal/element.ts';
export { DoseCalculator, type DoseCalculatorProps } from './dose-calculator/DoseCalculator.tsx';
export { BradycardiaAdvisor, type BradycardiaAdvisorProps } from './bradycardia-advisor/BradycardiaAdvisor.tsx';
export { defineWidget } from './shared/element/define-widget.tsx';
export { sessionStore, isAuthenticated, type SessionState, type SessionUser } from './shared/session/session-store.ts';
export { TOKENS, type ThemeToken } from './shared/ui/theme.ts';
export { messagesEn, type Messages } from './shared/lang/messages/index.ts';
export type { SgxEventDetails, SgxEventName, SgxEvent } from './shared/widget-host/events.ts';
export type * from './element-types.ts';

/**
 * The elements' typed contract for host pages: properties (each mirrors a kebab-case attribute),
 * `document.querySelector('sgx-…')` typing, and JSX typing for React hosts. Attributes are strings.
 */
export interface SgxDoseCalculatorElement extends HTMLElement {
  /** `api-base`: the API origin, for saving a signed-in clinician's calculations. */
  apiBase?: string;
  /** `weight`: preset body weight in kg. */
  weight?: string;
  /** `age-group`: preset age group (adult, pediatric, infant). */
  ageGroup?: string;
  /** `emergency`: present (or "true") shows the Emergency button that opens the emergency card. */
  emergency?: string;
  /** `hospital-name`: printed on the patient sheet. */
  hospitalName?: string;
}
export interface SgxBradycardiaAdvisorElement extends HTMLElement {
  /** `api-base`: the API origin ("" = same origin). */
  apiBase?: string;
  /** `emergency`: present (or "true") shows the Emergency button that opens the emergency card. */
  emergency?: string;
}
export interface SgxRoiCalculatorElement extends HTMLElement {
  apiBase?: string;
  cases?: string;
  orCostPerMinute?: string;
  timeNeostigmine?: string;
  timeProduct?: string;
  baselinePpcRate?: string;
  calculatorTarget?: string;
  guideHref?: string;
}
export interface SgxAccessPortalElement extends HTMLElement {
  apiBase?: string;
  profileHref?: string;
  /** `hospital-name`: printed on patient sheets made from the history. */
  hospitalName?: string;
}

/** JSX attributes for React hosts: kebab-case attributes (they work before the element is defined). */
interface SgxJsxAttributes {
  id?: string;
  class?: string;
  className?: string;
  style?: Record<string, string | number>;
  hidden?: boolean;
  nonce?: string;
  ref?: unknown;
  key?: string | number;
  /** Light-DOM content: shown only until the element is defined (the shadow root has no slot), as a fallback. */
  children?: unknown;
}
type Attr<K extends string> = { [P in K]?: string };

declare global {
  interface HTMLElementTagNameMap {
    'sgx-dose-calculator': SgxDoseCalculatorElement;
    'sgx-bradycardia-advisor': SgxBradycardiaAdvisorElement;
    'sgx-roi-calculator': SgxRoiCalculatorElement;
    'sgx-access-portal': SgxAccessPortalElement;
  }
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'sgx-dose-calculator': SgxJsxAttributes &
        Attr<'api-base' | 'weight' | 'age-group' | 'emergency' | 'hospital-name'>;
      'sgx-bradycardia-advisor': SgxJsxAttributes & Attr<'api-base' | 'emergency'>;
      'sgx-roi-calculator': SgxJsxAttributes &
        Attr<
          | 'api-base'
          | 'cases'
          | 'or-cost-per-minute'
          | 'time-neostigmine'
          | 'time-product'
          | 'baseline-ppc-rate'
          | 'calculator-target'
          | 'guide-href'
        >;
      'sgx-access-portal': SgxJsxAttributes & Attr<'api-base' | 'profile-href' | 'hospital-name'>;
    }
  }
}

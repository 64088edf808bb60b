/** The access portal's strings (docs/product.md §2, §4, §5, §8). */
export const portal = {
  // The control in the top navigation bar
  barLabel: 'Account',
  openAccess: 'Sign In / Quick Use',
  openAccessDuringQuickUse: 'Sign In',
  checkingSession: 'Checking your sign-in…',
  // An account the EHR named no one for has no name: never "Dr." before nothing, or before a placeholder.
  welcome: (name: string) => (name ? `Welcome, Dr. ${name}` : 'Welcome'),
  profile: 'Profile',
  logout: 'Log Out',

  // "Choose Access Mode" dialog (docs/product.md §1, §2, §6)
  chooserTitle: 'Choose Access Mode',
  chooserIntro: 'Sign in to save your work, or use the tools without an account.',
  accountCardTitle: 'Account Access',
  accountCardText:
    'For registered healthcare professionals: save patient data, view your calculation history, search patients and export PDF to notes.',
  quickUseCardTitle: 'Quick Use',
  quickUseCardText:
    'No account needed. Nothing is saved: your data lasts for this session only. Export is allowed but not stored.',
  chooseSignIn: 'Sign In',
  chooseSignUp: 'Sign Up',
  chooseQuickUse: 'Quick Use',

  // "HCP Access Portal" dialog
  portalTitle: 'HCP Access Portal',
  tabsLabel: 'Sign in or create an account',
  signInTab: 'Sign In',
  signUpTab: 'Sign Up',
  signInFormLabel: 'Sign in',
  signUpFormLabel: 'Create an account',
  email: 'E-mail',
  password: 'Password',
  fullName: 'Full name',
  licence: 'Medical licence number',
  passwordHint: '8–128 characters',
  licenceHint: 'Optional',
  terms: "I'm a licensed clinician and agree to use this as decision support only",
  signInSubmit: 'Sign In',
  signUpSubmit: 'Create Account',

  // Field validation before anything is sent
  emailRequired: 'E-mail is required',
  emailInvalid: 'Please enter a valid e-mail address',
  passwordRequired: 'Password is required',
  passwordLength: 'Password must be 8-128 characters',
  nameRequired: 'Full name is required',

  // Sign up (docs/product.md §5, §8)
  agreementTitle: 'Agreement Required',
  agreementDescription: 'Please agree to the terms and conditions',
  signUpFailedTitle: 'Registration Failed',
  signUpFailedToast: 'Please try again',
  signUpFailedInline: 'Registration failed',
  accountCreatedTitle: 'Account Created',
  accountCreatedDescription: (name: string) =>
    name ? `Welcome to the HCP portal, Dr. ${name}.` : 'Welcome to the HCP portal.',

  // Sign in (docs/product.md §8)
  signInFailedTitle: 'Sign In Failed',
  signInFailedToast: 'Please check your credentials',
  signInFailedInline: 'Sign in failed',
  welcomeBackTitle: 'Welcome Back',
  // Signing in to an account whose deletion waits out its grace period (issue 34)
  deletionPending: (date: string) =>
    `This account is scheduled for deletion on ${date}. Keep it, and everything in it, by signing in with ` +
    '"Keep my account".',
  keepAccount: 'Keep my account',
  accountKeptTitle: 'Your account is kept',
  accountKeptDescription: 'The deletion is cancelled and you are signed in.',
  welcomeBackDescription: 'Successfully signed in',

  // A session the server ended (the idle limit, or signed out elsewhere): said by the access control
  sessionEndedTitle: 'Signed out',
  sessionEndedKept: 'What you typed is kept. Sign in again to go on.',
} as const;

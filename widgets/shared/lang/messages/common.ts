/** Strings every element shares. */
export const common = {
  notifications: 'Notifications',
  dismiss: 'Dismiss notification',
  close: 'Close',
  moreInformation: (field: string) => `About ${field}`,
  required: 'required',
  optional: 'optional',
  loading: 'Working…',
  decisionSupport: 'Decision support only. Confirm every dose against the product information and clinical judgement.',
  copied: 'Copied',
  copyFailed: 'Could not copy',
  copyFailedDetail: 'Select the text and copy it by hand.',
  checkConnection: 'Check the connection and try again.',
  quickUseBadge: 'Quick Use - nothing is saved',
} as const;

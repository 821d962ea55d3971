/** The account `addressd widget-demo` uses (and creates) when no --account is given. */
export const DEMO_ACCOUNT_NAME = 'widget demo';

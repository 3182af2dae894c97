/** The instrumentation scope: meter and logger name, as users select it in views. */
export const PACKAGE_NAME = '@argcheck/instrumentation';
export const PACKAGE_VERSION = '0.1.0';

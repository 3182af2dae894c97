/**
 * The dashboard's queries for tests (deploy/stack/src/dashboard-queries.ts,
 * shared with the dashboard's pictures), and the repository root.
 */
export {
  ATTRIBUTED_SERIES,
  ATTRIBUTION_LABELS,
  BUILTIN_RANGE_VARIABLES,
  CONTRACT_METRICS,
  CONTRACT_SERIES,
  DASHBOARD_PATH,
  SELECTABLE_METRIC_NAMES,
  annotationQueries,
  dashboardQueries,
  labelsAllowedOn,
  loadDashboard,
  metricNamesIn,
  substituteVariables,
  variablesIn,
} from '../../deploy/stack/src/dashboard-queries.js';
export type {
  ContractMetric,
  Dashboard,
  DashboardAnnotation,
  DashboardPanel,
  DashboardTarget,
  DashboardVariable,
  PanelQuery,
  QueryOptions,
} from '../../deploy/stack/src/dashboard-queries.js';
export { REPO_ROOT } from '../../deploy/stack/src/programs.js';

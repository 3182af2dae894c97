// The complete public surface of @argcheck/cli besides the `argcheck` binary:
// the report reader, for scripts that want the figures without the text.
export type {
  ArgumentReport,
  InputSummary,
  Report,
  ReportFormat,
  ShapeRow,
  ValueRow,
} from './types.js';
export type { InputProblem, ReadReportOptions } from './report/read-report.js';
export { readReport } from './report/read-report.js';
export { renderMarkdown } from './report/render-markdown.js';
export { renderText } from './report/render-text.js';

export { renderReportPdf } from './render.ts';

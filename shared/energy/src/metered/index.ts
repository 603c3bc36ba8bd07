export { annualKwh, calibrate, heatPumpKw, homeModelOf, implausibleMeteredUse } from './calibrate.ts';
export type { CalibrationFit, HomeModel, MeteredCarrier } from './calibrate.ts';
export { fitDegreeDays, tQuantile } from './regression.ts';
export { daysIn, normalDegreeDays, normalYearDegreeDays, stationOf } from './data.ts';

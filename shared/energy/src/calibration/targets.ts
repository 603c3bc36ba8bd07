/** The "Done when" targets for the calibration strata (asserted by the calibration test and the CLI). */
export const TARGETS = {
  stratumA: { withinOneClassMin: 0.7, medianApeMax: 0.35 },
  stratumB: { mapeMax: 0.1 },
} as const;

export type {
  CatalogueNode,
  Effect,
  GrantCategory,
  IncomeCategory,
  Predicate,
  QuantityRule,
  Requirement,
  Scope,
  Unit,
  VatRuleId,
} from './types.ts';
export { CLIENT_SCOPES, GRANT_CATEGORIES, INCOME_CATEGORIES, SCOPES } from './types.ts';
export {
  CATALOGUE_VERSION,
  UnknownComponentTypeError,
  allNodes,
  appliesTo,
  availableItems,
  availableRoots,
  defaultLeaf,
  findNode,
  getNode,
  isAllowedInScope,
  isLeaf,
  leavesOf,
  rootOf,
  rootsOf,
  selectionTree,
} from './catalogue.ts';
export type { ClientScope, SelectionTreeNode } from './catalogue.ts';
export { applyEffect } from './effects.ts';
export { MissingQuantityInputError, quantityFor } from './quantity.ts';
export type { QuantityContext } from './quantity.ts';
export { DEFAULT_INCOME_CATEGORY, PricingError, priceItem, rulesDateOf } from './pricing.ts';
export type { PriceItemInput, PricedItem, PricingEstate } from './pricing.ts';
export { vatFor } from './vat.ts';
export type { VatContext, VatDecision } from './vat.ts';
export { costIndexFactor, PRICE_LEVEL_YEAR } from './cost-index.ts';
export { coordinationSiteOf, coordinationSites, supportingWorks, tradesOf } from './supporting-works.ts';
export type { CoordinationSite, DerivedItem, SupportedItem, SupportingEstate, SupportingOptions } from './supporting-works.ts';
export { groupByGrantCategory } from './grant-groups.ts';
export type { EligibleRenovationItem, GovernmentGrants, GrantGroup, GroupableItem } from './grant-groups.ts';
export { MEASURES_FOR_PLANNER, canPlan } from './planner-measures.ts';
export type { PlannerMeasure } from './planner-measures.ts';
export { evaluate } from './predicates.ts';
export { productFor } from './products.ts';
export type { ProductRow } from './products.ts';
export { effectsOfSet, leafOfType, priceSet, sumFigures, valueItemSet } from './item-set.ts';
export type { MoneyFigures, SetEffects, SetItem, SetItemResult, SetPricing, ValuedSet } from './item-set.ts';
export { PLANNER_DATA, regionalTarget, renovationObligationRule, stateOrderBlocks } from './planner-data.ts';
export { appliesIfLet, meetsMilestone, milestonesFor, type Milestone } from './milestones.ts';
export type { PlannerData, PlannerMilestoneRule, RegionalTarget, RenovationObligationRule } from './planner-data.ts';
export { SPECIFICATIONS, bandFamilyOf, heatPumpBand, heatPumpLeaf, specificationOf } from './specifications.ts';
export { endedGrantRule, grantRulesKnown } from './grants.ts';

import type { Scope } from '@renopath/contracts';

/** What each OAuth scope lets an API client do (the token endpoint grants a client's scopes; docs/http-contract.md). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  estates: 'Estates, their parts, files, media and members.',
  renovations: 'Renovations, their items, overview and grants.',
  calculations: 'Trajectory jobs and energy-efficiency indications.',
  reports: 'PDF reports of renovations; reading renovation passports.',
  organization: 'The organization, its users and members.',
  audit: 'The event history of estates and renovations (not granted unless asked for).',
  passports: "Writing renovation passports: drafts, the advisor's edits and the signature.",
};

/**
 * A description of every named schema of the OpenAPI document, by its contract's name (an input
 * variant `<Name>Input` shares its contract's). `openapi-document.unit.spec.ts` fails on a schema
 * without one, so a new contract a route publishes gets its words here.
 */
export const COMPONENT_DESCRIPTIONS: Record<string, string> = {
  AcceptInvitationBody: 'The single-use code from an invitation message.',
  AddEstateMemberBody: 'Who to invite to an estate as a CLIENT member.',
  AddOrganizationMemberBody: 'Who to invite to the organization, and as what.',
  AdminCreateApiClientBody: 'An API client for a user: the organization it acts in and its scopes (default: all but audit).',
  AdminCreateOrganizationBody: "A new organization's profile and its owner.",
  AdminOrganizationCreated: "The organization, its owner and the owner's API client; the secrets are shown this once.",
  ApiClientRevoked: 'A revoked API client: its tokens stop working at once.',
  ApiClientCreated: 'A new API client; the client secret and webhook secret are shown this once.',
  AtticUsage: 'What the attic is used for.',
  AvailableItem: 'A component type a client may add in a scope, with the selection tree of its variants.',
  BasementCeilingHeight: 'The clear height of a basement, in two classes.',
  BasementType: 'Whether the home has a basement or crawl space, and how much of its footprint it covers.',
  CalculationJob:
    'A calculation job: every field is always present (null while unknown). `metadata` holds the result once the job is FINISHED.',
  CalculationJobMetadata:
    "A job's `metadata`: `{}` until it ends; the trajectory or the EPC document's reading when FINISHED; `{ error }` when FAILED.",
  CalculationJobPage: "One page of the organization's calculation jobs.",
  LabelSource:
    "Where a portfolio row's label comes from: CERTIFIED (the row gave the certificate's score or label, kept as given) or ESTIMATED (the model's).",
  PortfolioResultRow:
    "One input row's result in a portfolio run: OK with the home's label on its region's scale, primary energy, CO2, taxonomy test, next milestone and its cost, and PCAF financed emissions; or ERROR with the column, line and reason.",
  PortfolioRun: 'A portfolio run: a CSV of homes computed in batches, its progress and status.',
  PortfolioRunPage: "One page of the organization's portfolio runs.",
  PortfolioRunStatus: 'QUEUED (file read), RUNNING, FINISHED (every row has a result), STOPPED (by the stop call) or FAILED.',
  PortfolioSummary:
    "A portfolio run's tables over its OK rows: by label, by EBA Pillar 3 energy bucket, the estimated, taxonomy-aligned and taxonomy-not-assessable shares, and PCAF financed emissions.",
  TaxonomyStatus:
    "EU taxonomy 7.7 for a home built before 2021: CLASS_A (label A or better), TOP_15 (within its region's verified top-15% figure), NOT_ALIGNED, NOT_ASSESSABLE (not class A and no verified top-15% figure for its region), NOT_APPLICABLE (built from 2021: another criterion, not assessed).",
  CalculationJobStatus: "A job's state: NOT_STARTED, RUNNING, then FINISHED, FAILED or STOPPED.",
  CalculationJobType: 'What a job computes.',
  CalibrationMethod:
    'How the plan was fitted to the metered use: MONTHLY (a degree-day regression on 12 or more months) or ANNUAL (a yearly figure against the normal year).',
  CavityWallWidth: 'The width of a cavity wall, in two classes.',
  ConfirmEmailChangeBody: 'The single-use code sent to the new address.',
  Country: 'The country, ISO 3166-1 alpha-2: Belgium or the Netherlands.',
  CreateEstateBody: 'A new estate: every field is optional; what is given is checked. Parts, files and members have their own endpoints.',
  CreateFloorBody: 'A new floor of the estate.',
  CreateRenovationBody: 'A new renovation of an estate.',
  AdviceContact: "The region's public renovation advice service named in a renovation passport (name, url, phone, source).",
  CreatePassportBody: 'The FINISHED trajectory job a renovation passport is pre-filled from.',
  PassportAddress: "The building's address in a renovation passport.",
  PassportAssumptions:
    "What a renovation passport's figures assume: price year, energy prices per carrier, income category, model and catalogue versions, and how the advisor's edits are recomputed.",
  PassportBuilding:
    'The building today in a renovation passport: address, type, year, area, EPC label and score, primary energy, CO2, energy bill and the quality and sources of the data.',
  PassportEnergyPrice: 'An energy price per kWh of one carrier, VAT included.',
  PassportMilestone: 'A legal milestone (obligation, rental norm, target) with its deadline when known and the step that first reaches it.',
  PassportSigner: 'The advisor who signed a renovation passport and their accreditation number.',
  PassportStatus: 'DRAFT until the advisor signs; SIGNED is final.',
  PassportStep:
    "One stage of a renovation passport's roadmap: the works and their specification, the label after it, the savings, the cost with VAT, grant and financing, and the advisor's override.",
  PassportStepEdit:
    "An advisor's edit of one step, named by its `plan_order`: drop it, or override its quantity or cost (a note is required with an override).",
  PassportStepOverride: 'What the advisor changed on a step, with their note.',
  PassportSupportingWork: 'Works a step needs besides its main item (scaffolding, architect).',
  PassportTotals: "The sums of a renovation passport's steps: cost, VAT, grants, net cost and the yearly savings.",
  RenovationPassport:
    'A renovation passport (EPBD article 12, annex VIII): pre-filled from a trajectory, completed and signed by an advisor, verifiable with /.well-known/jwks.json.',
  RenovationPassportContent: 'The document of a renovation passport: what is hashed (RFC 8785 canonical JSON) and signed.',
  SignPassportBody: 'The advisor who signs and their accreditation number.',
  SiteVisit: "The advisor's on-site visit: date, name, accreditation number and notes.",
  UpdatePassportBody: "The advisor's completion of a draft passport: the site visit, step edits and the steps' order.",
  CreateReportBody: "The report's language (default: the estate's country's).",
  CreateRoofBody: 'A new roof of the estate.',
  CreateRoomBody: 'A new room on a floor.',
  CreateStaircaseBody: 'A new staircase on a floor.',
  DataSource:
    'Where a figure of the calculation came from: the request, an EPC document, a LiDAR lookup, the energy provider, or the typology model.',
  EcoFacility: 'An energy-related facility the home has.',
  EmailChangeConfirmation: 'The user whose address changed, and the new address.',
  EmptyBody: 'No fields: send `{}` or no body.',
  EnergyEfficiencyType: "Which scale the EPC score and label are on: the region's EPC or the Dutch energy label.",
  EpcDocumentJobMetadata: 'What was read from the EPC certificate at `epc_url`.',
  ErrorBody: 'Every error: `statusCode`, its `error` text and, except for 401, 403 and 500, the problems in `message`.',
  Estate: 'A home with its address, commercial and energy context, dimensions, parts, files, media and members.',
  EstateAddress: "The estate's address; a null field is unknown.",
  EstateCommercialContext: "The estate's asking price, and the media used in its advert.",
  EstateDimensions: "The building's width, depth and height in centimetres.",
  EstateEnergyContext: "The estate's energy facts: heating, insulation, glazing, ventilation and the EPC score; a null field is unknown.",
  EstateFile: 'A file or medium of an estate; `url` downloads it for an hour.',
  EstateFloorType: 'The kind of a floor.',
  EstateFormat: 'How the home stands: detached (OPEN), semi-detached or terraced (CLOSED).',
  EstateHistoryEntry: 'One event of an estate: who did what, when.',
  EstateListForm: 'An estate without its energy context, dimensions, surfaces and files (the list form).',
  EstateListItem: 'An estate in the list, with its provider, external id, quality label and referral link.',
  EstateListReply: 'The estates the caller sees.',
  EstateMember: 'A CLIENT member of an estate (PENDING until they accept the invitation).',
  EstateProviderType: 'Which system created the estate: the API or a real-estate CRM.',
  EstateRoofType: 'The kind of a roof.',
  EstateRoomType: 'The use of a room.',
  EstateStaircaseType: 'The shape of a staircase.',
  EstateStatus: 'Where the estate stands on the market.',
  EstateType: 'The kind of home.',
  CoOwnershipDecision: "Extension: a flat's step that is a decision of the co-owners' association (VME/ACP, VvE), with the flat's share.",
  GrantConditions:
    "Extension: a step's grant schemes and conditions beside its amount; NOT_YET_SOURCED where the region's grant is unknown.",
  BillIncrease:
    "Extension: a step that makes the household's energy bill higher: how much a year, the obligation, rental norm or label it is the price of, and whether it is optional.",
  StepSpecification:
    'Extension: what a step builds: target U or R value, insulation thickness and material, glazing U and frame, SCOP and power.',
  FacadeMaterial: "Extension: what the outer walls' outside face is made of (natural stone is insulated from inside or not at all).",
  FloorPosition: 'Extension: where a flat sits in its building (ground floor, between flats, under the roof).',
  HeritageStatus: 'Extension: heritage protection of the facade or building (protected facade, protected townscape, listed).',
  FailedJobMetadata: "A FAILED job's `metadata`: why it failed.",
  Financing:
    "The household's money of a step or the plan: grant, the public loan it qualifies for with its monthly annuity, the monthly bill saving, and the paybacks with and without the grant.",
  FinishedTrajectoryJobMetadata:
    "A FINISHED trajectory job's `metadata`: the ordered steps with their costs, grants and EPC after each, the totals, the confidence, and the renovation made of the steps. See docs/job-metadata.md.",
  Floor: 'A floor of an estate, with its rooms and staircases.',
  FloorAboveBasementInsulation: 'The insulation of the floor above a basement or crawl space.',
  GlazingType: 'The glazing of most windows.',
  Household:
    'Who lives in the home and on what terms (occupants, taxable income, occupancy, purchase date): which obligations, grants and loans apply.',
  WebhookDeliveryType:
    "The event a webhook delivery carries: a trajectory job's end, a portfolio run's end, or a renovation passport's signature.",
  Interval80: 'An 80% interval: one chance in ten below `low`, one in ten above `high`.',
  MeteredCalibration:
    "How the bill and savings were fitted to the household's metered use: method, heat-loss coefficient with its 80% interval, baseload, metered and modelled use. The EPC score stays the asset rating.",
  MeteredMonth: "One month's meter readings (YYYY-MM, kWh of gas and electricity, litres of heating oil).",
  MeteredUse:
    "The household's own metered use: a yearly figure (gas in kWh or m3, electricity, heating oil, pellets, PV production, period_end) and/or at least 12 monthly readings.",
  Occupancy: 'Whether the owner lives in the home or lets it.',
  PlanElement:
    'The element of the home a step treats (roof, walls, windows, floor, ventilation, heat generator, hot water, solar panels, ...).',
  PlanMilestone:
    'A milestone a step reaches: the Flemish or Walloon renovation obligation after a purchase, a rental minimum norm, or the long-term target label.',
  PlanOmission:
    'An element the plan leaves out or treats with a lesser variant, and why (already good, kept, not in this home, needs a permit, not priced).',
  PlanPhase:
    "The phase of a step in an energy advisor's order: roof; walls and windows; floor; ventilation; heat generator; hot water; solar panels.",
  GovernmentGrantGroup: 'The grants of one category: totals and each eligible item with its scheme and conditions.',
  GovernmentGrants: 'The grants a renovation is eligible for, by category; only categories with an eligible item appear.',
  GrantCategory: 'The category a grant belongs to.',
  GroundFloorType: 'What lies under the ground floor.',
  HeatEmitterType: 'How the heat reaches the rooms.',
  HeatingDevice: 'The space-heating generator.',
  HeatingType: 'The energy carrier of the space heating.',
  IndicationCalculationType: 'The kind of synchronous calculation: only ENERGY_EFFICIENCY.',
  IndicationRecord: 'A synchronous energy-efficiency indication: indicative only, with its disclaimer.',
  IndicationRequest:
    'A home described for an indication: year built and habitable space are required; the rest is filled from the typology of its age.',
  IndicationStatus: "An indication's outcome.",
  InstallationAge: 'The age of the heating installation.',
  InsulationLevel: 'How well a part of the envelope is insulated.',
  InvitationAcceptance: 'The membership that became ACTIVE, and the estates it came with.',
  JobError: 'Why a job failed: a code and a sentence.',
  JobWebhookPayload: 'The body of a job webhook: the event type, when it happened, and the job as GET answers it.',
  PassportWebhookPayload:
    'The body of the `renovation_passport.signed` webhook: the event type, when it was sent, and the signed passport named with its hash and public verification page.',
  PassportSignedWebhookData:
    'A signed renovation passport as its webhook names it: id, version, estate, the trajectory job it was drafted from, when it was signed, the SHA-256 of its canonical content and its public verification page.',
  Jwks: 'The public keys (JWK set) that verify access tokens.',
  MemberType: "A member's role in an organization.",
  Membership: "A user's role in one organization.",
  MembershipStatus: 'PENDING until the invitation is accepted, then ACTIVE.',
  OldStyleReport: "The renovation's newest report (old style); `url` downloads it for an hour.",
  Organization: 'An organization (agency, bank, adviser) and its profile; `region` follows from its postal code and country.',
  OrganizationMember: 'A member of an organization (PENDING until they accept the invitation).',
  OutboxMessage: 'A message waiting in the outbox for the operator to pass on (no SMTP server configured).',
  QualityLabel: 'How complete and reliable the data behind a figure is, A (best) to D.',
  Region: 'The region whose rules apply: Flanders, Brussels, Wallonia or the Netherlands.',
  Renovation: 'A renovation of an estate (old style) with its totals and EPC indication.',
  RenovationCreated: 'The new renovation.',
  RenovationFile: 'A file of a renovation; `url` downloads it for an hour.',
  RenovationItem: 'A work in a renovation: its component type, count, quantity, cost, VAT, grant and selection tree.',
  GeneralRenovationItemBody: "A work for the whole home: one of the catalogue's component types of the general scope, and how many units.",
  RoofRenovationItemBody:
    "A work on a roof: one of the catalogue's component types of the roof scope, and how many units (area-based works multiply the roof's surface).",
  RoomRenovationItemBody: "A work in a room: one of the catalogue's component types of the room scope, and how many units.",
  StaircaseRenovationItemBody: "A work on a staircase: one of the catalogue's component types of the staircase scope, and how many units.",
  StepLoan: "A public renovation loan: product, provider, rate, term, principal, the annuity's monthly payment, its conditions and source.",
  UpdateGeneralRenovationItemBody: 'Changes to an item of the general scope: at least one field.',
  UpdateRoofRenovationItemBody: 'Changes to an item on a roof: at least one field.',
  UpdateRoomRenovationItemBody: 'Changes to an item in a room: at least one field.',
  UpdateStaircaseRenovationItemBody: 'Changes to an item on a staircase: at least one field.',
  RenovationItemBody: 'A work to add: a catalogue component type allowed in the scope, and how many units.',
  RenovationObligationMark: 'The Flemish renovation obligation after a purchase, on the step that meets it.',
  RenovationOverview: "A renovation's items by scope with their summary (old style).",
  RenovationOverviewV1: "A renovation's summary and its items by scope.",
  RenovationScope: 'Where an item belongs: the whole home, a roof, a room, a staircase, or derived by the system.',
  RenovationSearchEntry: 'A renovation in the search: its totals and its estate.',
  RenovationSearchPage: 'One page of the renovation search.',
  RenovationWithFiles: 'A renovation with its totals, EPC indication and files.',
  Report: 'A PDF report; `url` downloads it for an hour; `is_outdated` once its renovation changed after it was made.',
  ReportLanguage: 'The language of a report.',
  Roof: 'A roof of an estate.',
  RoofType: "The home's roofs together: inclined, flat, or both.",
  Room: 'A room on a floor.',
  SanitaryHeatingDevice: 'How hot water is made.',
  Scope: 'An OAuth scope an API client may hold.',
  SelectionNode: 'A node of a selection tree: whether it is selected, and its children by component type.',
  SelectionTree: 'The variants of a component type, as nested nodes.',
  SortBy: 'The field a search sorts by.',
  SortOrder: 'The direction of a sort.',
  Staircase: 'A staircase on a floor.',
  TokenReply: 'An access token (EdDSA JWT) and how many seconds it lives.',
  TokenRequestBody: 'Client credentials, as JSON or as the RFC 6749 form.',
  TrajectoryRequest:
    "A home described for a trajectory: five fields are required, every other one sharpens the result; plus the job's own fields (title, epc_url, external_id, webhook_url). See docs/http-contract.md.",
  TrajectoryStep: 'One step of a trajectory: the work, its cost, VAT, grant and net cost, its supporting works, and the EPC after it.',
  TrajectorySupportingWork: 'A work a step needs besides its main one (scaffolding, removal, finishing).',
  TrajectoryTotals: 'The sums of all steps.',
  UpdateEstateBody: 'Changes to an estate: at least one field; nested objects merge, null clears.',
  UpdateFloorBody: 'Changes to a floor: at least one field.',
  UpdateOrganizationBody: 'Changes to the organization profile: at least one field; null clears an optional one.',
  UpdateRenovationItemBody: 'Changes to an item: at least one field.',
  UpdateRoofBody: 'Changes to a roof: at least one field.',
  UpdateRoomBody: 'Changes to a room: at least one field.',
  UpdateStaircaseBody: 'Changes to a staircase: at least one field.',
  UpdateUserBody: 'Changes to a user: at least one field. A new email address waits for confirmation.',
  User: 'A user with their organizations; `pending_email_address` until a new address is confirmed.',
  VentilationType: 'The ventilation system (A: natural, B/C: mechanical supply or exhaust, D: balanced).',
  WebhookDeliveryView: 'A webhook delivery of a job, and every attempt at it.',
  WebhookSecretRotated: 'The new webhook signing secret, shown this once.',
};

/** What the document says of the API as a whole. */
export const INFO = {
  title: 'Renopath API',
  version: '1.0.0',
  summary: 'Energy-renovation trajectories, estates, renovations, grants and reports for homes in Belgium and the Netherlands.',
  description: [
    'Renopath plans energy renovations of homes in Flanders, Brussels, Wallonia and the Netherlands: a client describes a home and',
    'gets an ordered renovation trajectory (works, costs, VAT, grants, the EPC label after each step), and manages estates,',
    'renovations and PDF reports.',
    '',
    '- **Authentication**: OAuth 2.0 client credentials at `POST /v1/oauth/token`; send the access token as `Authorization: Bearer`.',
    '- **Paths**: every operation is served under `/v1`; the older unversioned paths are aliases of the same operations (tag `unversioned aliases`).',
    '- **Errors**: `{ statusCode, error, message[] }`; 401, 403 and 500 carry no `message`.',
    '- **Writes** are answered once their effects are readable (read your writes); `Idempotency-Key` makes a POST safe to retry.',
    '- **Webhooks**: a job created with a `webhook_url` is announced when it finishes, fails or stops, and a renovation passport drafted with one when it is signed, signed as Standard Webhooks.',
    '',
    'The conventions are explained in the repository: docs/http-contract.md, docs/webhooks.md and docs/events.md.',
  ].join('\n'),
};

/** The document's tags in the order a client meets them (auth, users, ... admin last). */
export const TAGS = [
  { name: 'auth', description: 'Access tokens and the keys that verify them.' },
  { name: 'users', description: 'The users of an organization.' },
  { name: 'organizations', description: 'Organizations, their members and invitations.' },
  { name: 'estates', description: 'Homes with their roofs, floors, rooms, staircases, files, media and members.' },
  { name: 'renovations', description: 'Renovations of an estate: items in four scopes, overview and grants.' },
  { name: 'calculation-jobs', description: 'Suggested renovation trajectories, computed as jobs to poll or be called back about.' },
  { name: 'calculations', description: 'The synchronous energy-efficiency indication.' },
  { name: 'reports', description: 'PDF reports and the public referral page.' },
  { name: 'files', description: 'Signed downloads of files, media and reports.' },
  { name: 'audit', description: 'What happened to an estate or a renovation, event by event (scope audit).' },
  { name: 'admin', description: 'The operator API (served when RENOPATH_ADMIN_TOKEN is set).' },
  { name: 'operations', description: 'Health and readiness probes.' },
  {
    name: 'unversioned aliases',
    description: 'The older paths without `/v1`: the same operations as their `/v1` paths, kept for clients written against them.',
  },
];

/**
 * One example per JSON request body of the OpenAPI document, by the name of the body's schema there
 * (the contract's name in `@renopath/contracts`, or a route's documented body). The test
 * `openapi-document.int.spec.ts` parses each with its route's schemas, so an example the server would
 * refuse fails the tests rather than misleading an integrator.
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  TokenRequestBody: { client_id: 'c0a8012e-7d1b-4c55-9a38-2f5d7e0b9c11', client_secret: 'the-secret-printed-once' },
  UpdateUserBody: { first_name: 'An', last_name: 'Peeters' },
  UpdateOrganizationBody: { phone_number: '+32 9 123 45 67', street: 'Veldstraat', house_number: '12', zipcode: '9000', place: 'Gent' },
  AddOrganizationMemberBody: { email_address: 'jan@peeters.example', first_name: 'Jan', last_name: 'Peeters', member_type: 'EMPLOYEE' },
  AcceptInvitationBody: { token: 'inv_3q2Yx8ZrW0kN5pL7aB1cD9eF' },
  ConfirmEmailChangeBody: { token: 'eml_7Hk2Lm9Np4Qr6St8Uv0Wx1Yz' },
  AdminCreateOrganizationBody: {
    name: 'Immo Peeters', country: 'BE', zipcode: '9000',
    owner: { email_address: 'an@peeters.example', first_name: 'An', last_name: 'Peeters' },
  },
  AdminCreateApiClientBody: { user_id: '5d1f8a2c-3b4e-4f60-8a71-92b3c4d5e6f7', scopes: ['estates', 'renovations', 'audit'] },
  CreateEstateBody: {
    external_id: 'crm-4711',
    name: 'Rijwoning Veldstraat',
    estate_type: 'HOUSE',
    estate_format: 'CLOSED',
    year_built: 1962,
    habitable_space_m2: 145,
    address: { street: 'Veldstraat', house_number: '12', zip_code: '9000', place: 'Gent', country: 'BE' },
    energy_context: { heating_type: 'GAS', outer_wall_insulation_type: 'NONE', eco_facilities: ['SOLAR_PANELS'] },
  },
  UpdateEstateBody: { estate_status: 'FOR_SALE', energy_context: { heating_type: 'HEAT_PUMP' } },
  CreateRoofBody: { estate_roof_type: 'INCLINED', surface_m2: 72, insulation_type: 'LIGHT', pitch_degrees: 40 },
  UpdateRoofBody: { insulation_type: 'STRONG' },
  CreateFloorBody: { estate_floor_type: 'GROUND_FLOOR', floor_number: 0, surface_m2: 70, dimensions: { height_cm: 270 } },
  UpdateFloorBody: { insulation_type: 'MODERATE' },
  CreateRoomBody: { estate_room_type: 'LIVING_ROOM', surface_m2: 32, window_count: 3 },
  UpdateRoomBody: { window_count: 4 },
  CreateStaircaseBody: { estate_staircase_type: 'QUARTER_TURN', step_count: 15, dimensions: { width_cm: 90 } },
  UpdateStaircaseBody: { step_count: 16 },
  AddEstateMemberBody: { email_address: 'koper@example.be', first_name: 'Lotte', last_name: 'Janssens' },
  CreateRenovationBody: { estate_id: '8e0d6c4a-1f2b-4c3d-9e8f-7a6b5c4d3e2f', renovation_name: 'Na aankoop' },
  GeneralRenovationItemBody: { renovation_component_type: 'CAVITY_WALL_INSULATION', count: 1 },
  UpdateGeneralRenovationItemBody: { count: 2 },
  RoofRenovationItemBody: { renovation_component_type: 'INCLINED_ROOF_INSULATION_OUTSIDE', count: 1 },
  UpdateRoofRenovationItemBody: { renovation_component_type: 'INCLINED_ROOF_INSULATION_INSIDE' },
  RoomRenovationItemBody: { renovation_component_type: 'FLOORING_PARQUET', count: 1 },
  UpdateRoomRenovationItemBody: { renovation_component_type: 'FLOORING_TILES' },
  StaircaseRenovationItemBody: { renovation_component_type: 'STAIRCASE_RENOVATION', count: 1 },
  UpdateStaircaseRenovationItemBody: { count: 1 },
  TrajectoryRequest: {
    year_built: 1960, estate_format: 'SEMI_OPEN', habitable_space_m2: 150, zip_code: '9000', country: 'BE',
    heating_type: 'GAS', outer_wall_insulation_type: 'NONE', roof_type: 'INCLINED',
    external_id: 'crm-4711', title: 'Veldstraat 12', webhook_url: 'https://crm.example/hooks/renopath',
  },
  EmptyBody: {},
  IndicationRequest: { year_built: 1975, habitable_space_m2: 120, heating_type: 'GAS', zip_code: '2000', country: 'BE' },
  CreateReportBody: { language: 'nl-BE' },
};

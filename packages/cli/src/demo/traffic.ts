/**
 * Who makes the demo's calls: which model, reading the tools as which MCP
 * server lists them. The canary and the rolling deploy of the story are
 * shares of the traffic on these routes; argcheck tells them apart by what
 * it really sees — the model the call is made under
 * (`inst.withAttribution`) and the listing of the server the call goes to
 * (`tool_definition`).
 */

/** The models the agent runs on: the one in production, and the new provider's on canary. */
export const MODELS = {
  current: { model: 'acme-chat-4', provider: 'acme' },
  canary: { model: 'nova-large-1', provider: 'nova' },
} as const;
export type ModelName = keyof typeof MODELS;

/**
 * The two listings of the shop's MCP server during the rolling deploy: the
 * processes still on the old version, and those with the rewritten
 * `refund_order` description. Only that description differs.
 */
export const LISTINGS = {
  original: {
    version: '1.0.0',
    refundDescription: 'Refund an order. reason_code is one of the refunds service reason codes.',
  },
  rewritten: {
    version: '1.1.0',
    refundDescription:
      'Refund an order. reason_code is the refunds service code for why, copied exactly as the ' +
      'service writes it (upper case with underscores, e.g. DAMAGED, LATE); use OTHER when none fits.',
  },
} as const;
export type ListingName = keyof typeof LISTINGS;

/** A share of the traffic: a model, and the server listing it reads. */
export const ROUTES = {
  /** The current model on servers with the old description. */
  original: { model: 'current', listing: 'original' },
  /** The current model on servers with the rewritten description. */
  rewritten: { model: 'current', listing: 'rewritten' },
  /** The new provider's model, after the rewrite. */
  canary: { model: 'canary', listing: 'rewritten' },
} as const satisfies Record<string, { model: ModelName; listing: ListingName }>;
export type RouteName = keyof typeof ROUTES;
export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

/** The attribution a route's calls are made under. */
export function modelOf(route: RouteName): (typeof MODELS)[ModelName] {
  return MODELS[ROUTES[route].model];
}

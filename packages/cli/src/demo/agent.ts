import type { MismatchShape } from '@argcheck/core';
import { createMix, createQuota } from './mix.js';
import { between, mulberry32, pick, type Random } from './prng.js';
import type { ToolName } from './tools.js';
import type { RouteName } from './traffic.js';
import {
  LABELLED_REASON_CODES,
  REASON_CODES,
  SEVENTH_REASON_CODE,
  WAREHOUSES,
} from './value-set-data.js';
import { variant, type ValueKind } from './variants.js';

/** How often each argument goes wrong on one route, and how. */
export interface RouteBehaviour {
  /** Share of calls whose argument is out of set, per value kind, in [0, 1]. */
  outOfSet: Readonly<Record<ValueKind, number>>;
  /** Relative weights of the mismatch shapes, per value kind. */
  shapes: Readonly<Record<ValueKind, Readonly<Partial<Record<MismatchShape, number>>>>>;
}

/** The traffic at one point of the story. */
export interface AgentProfile {
  /** Relative weights of the routes (model and server listing) the calls take. */
  routes: Readonly<Partial<Record<RouteName, number>>>;
  /** How each route's calls go wrong. */
  behaviour: Readonly<Record<RouteName, RouteBehaviour>>;
  /** Share of refunds that mean the seventh reason code (0 until the owner adds it). */
  seventhCodeShare: number;
  /** Relative weights of the tools. */
  tools: Readonly<Record<ToolName, number>>;
}

/** A field the agent emitted differently from what it meant. */
export interface Slip {
  /** Concrete location, as repair messages name it: `reason_code`, `items[1].warehouse_code`. */
  where: string;
  meant: string;
  shape: MismatchShape;
}

export interface PlannedCall {
  tool: ToolName;
  /** The model that makes the call, and the server listing it read. */
  route: RouteName;
  args: Record<string, unknown>;
  slips: Slip[];
}

export interface Agent {
  next(profile: AgentProfile): PlannedCall;
  /**
   * The second attempt after a repair message: every argument the message
   * names is set to a value it lists — the one the agent meant when listed,
   * else `OTHER`, else the first (closest) one; with nothing listed, the one
   * it meant.
   */
  repair(call: PlannedCall, message: string): Record<string, unknown>;
}

export interface AgentData {
  components: readonly string[];
  handles: readonly string[];
}

// prettier-ignore
const SUMMARIES = [
  'Checkout times out for EU customers', 'Refund webhook retries forever', 'Search shows sold-out items',
  'Invoice PDF has the wrong VAT', 'Password reset mail never arrives', 'Stock count off after transfer',
];

const ALIASES = new Map(
  [...REASON_CODES, SEVENTH_REASON_CODE].map((e) => [e.value, e.aliases ?? []] as const),
);

/** A tool-calling model, simulated: seeded, so `--seed` replays the same calls. */
export function createAgent(seed: number, data: AgentData): Agent {
  const random: Random = mulberry32(seed);
  // Per route and kind, so that each route's line tracks its own rate and mix.
  const slipQuota = new Map<string, (rate: number) => boolean>();
  const shapeMix = new Map<string, (w: Partial<Record<MismatchShape, number>>) => MismatchShape>();
  const toolMix = createMix<ToolName>(random);
  // One per tool: two error-diffusion sequences side by side fall into step,
  // and a canary share of all calls would not be its share of each tool's.
  const routeMix = new Map<ToolName, (w: Partial<Record<RouteName, number>>) => RouteName>();
  let orders = 100_000;

  const emit = (
    on: RouteBehaviour & { key: RouteName },
    kind: ValueKind,
    where: string,
    meant: string,
    slips: Slip[],
  ): unknown => {
    const key = `${on.key}:${kind}`;
    let quota = slipQuota.get(key);
    if (!quota) slipQuota.set(key, (quota = createQuota(random)));
    if (!quota(on.outOfSet[kind])) return meant;
    let mix = shapeMix.get(key);
    if (!mix) shapeMix.set(key, (mix = createMix<MismatchShape>(random)));
    const shape = mix(on.shapes[kind]);
    // An owner label only exists for some members; a model that writes one meant one of those.
    const target =
      shape === 'alias' && kind === 'reason_code' && (ALIASES.get(meant) ?? []).length === 0
        ? pick(random, LABELLED_REASON_CODES)
        : meant;
    slips.push({ where, meant: target, shape });
    return variant(random, kind, shape, target, ALIASES.get(target));
  };

  const reasonCode = (profile: AgentProfile): string =>
    random() < profile.seventhCodeShare
      ? SEVENTH_REASON_CODE.value
      : pick(random, REASON_CODES).value;

  return {
    next(profile) {
      const tool = toolMix(profile.tools);
      let mix = routeMix.get(tool);
      if (!mix) routeMix.set(tool, (mix = createMix<RouteName>(random)));
      const route = mix(profile.routes);
      const on = { ...profile.behaviour[route], key: route };
      const slips: Slip[] = [];
      let args: Record<string, unknown>;
      if (tool === 'refund_order') {
        orders += between(random, 1, 9);
        const reason_code = emit(on, 'reason_code', 'reason_code', reasonCode(profile), slips);
        args = { order_id: `ORD-${orders}`, reason_code };
      } else if (tool === 'create_ticket') {
        args = {
          summary: pick(random, SUMMARIES),
          component_id: emit(on, 'component', 'component_id', pick(random, data.components), slips),
          assignee: emit(on, 'handle', 'assignee', pick(random, data.handles), slips),
        };
      } else {
        const items = Array.from({ length: between(random, 1, 3) }, (_, i) => ({
          sku: `SKU-${between(random, 10_000, 99_999)}`,
          warehouse_code: emit(
            on,
            'warehouse',
            `items[${i}].warehouse_code`,
            pick(random, WAREHOUSES),
            slips,
          ),
          qty: between(random, 1, 40),
        }));
        args = { items };
      }
      return { tool, route, args, slips };
    },

    repair(call, message) {
      const args = structuredClone(call.args);
      for (const [where, choices] of listedValues(message)) {
        const meant = call.slips.find((slip) => slip.where === where)?.meant;
        // The value it meant may be new to the owner and missing from a stale list.
        // A large set with nothing close lists no values: the agent falls back
        // on what the conversation said (what it meant).
        const choice =
          [meant, 'OTHER'].find((v) => v !== undefined && choices.includes(v)) ??
          choices[0] ??
          meant;
        if (choice !== undefined) setAt(args, where, choice);
      }
      return args;
    },
  };
}

/** `"where" must be one of: "A", "B" (got …)` or `… Closest: "A", "B".`, per where. */
export function listedValues(message: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const heads = [...message.matchAll(/"((?:[^"\\]|\\.)*)" must be /g)];
  heads.forEach((head, i) => {
    const end = heads[i + 1]?.index ?? message.length;
    const segment = message.slice(head.index + head[0].length, end);
    const closest = segment.indexOf('Closest:');
    const list = segment.startsWith('one of:')
      ? segment.slice(0, segment.lastIndexOf(' (got'))
      : closest === -1
        ? ''
        : segment.slice(closest);
    const values = [...list.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => JSON.parse(m[0]) as string);
    out.set(JSON.parse(`"${head[1] ?? ''}"`) as string, values);
  });
  return out;
}

/** Sets `reason_code` or `items[1].warehouse_code` in a plain object tree. */
function setAt(root: Record<string, unknown>, where: string, value: string): void {
  const steps = where.split('.').flatMap((part) => {
    const m = /^(.+)\[(\d+)\]$/.exec(part);
    return m ? [m[1] as string, Number(m[2])] : [part];
  });
  let node: unknown = root;
  steps.forEach((step, i) => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string | number, unknown>;
    if (i === steps.length - 1) record[step] = value;
    else node = record[step];
  });
}

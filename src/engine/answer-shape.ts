import type { AddressComponents, ComponentVerdicts, GeoPoint, ResolvedAddress } from '../contract/address.js';
import type { NextAction, Verdict } from '../contract/enums.js';
import type { Alternative, AnswerGranularity } from '../contract/validate.js';
import { findAlternatives } from './alternatives.js';
import { answerGranularity } from './granularity.js';
import { nextAction } from './next-action.js';
import { hasCoordinates, resolvedAddress } from './resolved-address.js';
import type { ScoredCandidate, Thresholds } from './types.js';
import { listsUnits, unitVerdict } from './unit-verdict.js';

export interface ShapedAnswer {
  verdict: Verdict;
  address: ResolvedAddress | null;
  components: ComponentVerdicts;
  granularity: AnswerGranularity;
  action: NextAction;
  unresolved: string[];
  alternatives: Alternative[];
}

/**
 * What a caller stores and acts on, derived after the verdict from the reading and the chosen
 * candidate (DESIGN §11), one step per file: the unit's verdict (unit-verdict.ts), the other places
 * that fit nearly as well (alternatives.ts), the standardized address with its postal lines
 * (resolved-address.ts), the granularity (granularity.ts) and the next action (next-action.ts).
 * The verdict of the house changes only here and only downwards: a `valid` house with a unit the
 * data does not list, or with alternatives, is `correctable` (the person confirms which); the
 * confidence never changes.
 */
export function shapeAnswer(args: {
  input: AddressComponents;
  country: string | undefined;
  unresolved: readonly string[];
  selected: ScoredCandidate | null;
  usable: readonly ScoredCandidate[];
  verdict: Verdict;
  thresholds: Thresholds;
  /** The customer's position: the alternatives nearest first (issue 35). */
  near?: GeoPoint;
}): ShapedAnswer {
  const { selected, country } = args;
  const reading = selected?.reading ?? args.input;
  const unit = reading.unit?.trim() || undefined;
  const unitChecked = selected ? unitVerdict(unit, selected) : undefined;
  const components: ComponentVerdicts = selected ? { ...selected.componentVerdicts, ...(unitChecked ? { unit: unitChecked } : {}) } : {};
  const others = findAlternatives(selected, args.usable, args.thresholds, args.near);
  const ambiguous = unitChecked === 'mismatch' || others.length > 0;
  const verdict: Verdict = args.verdict === 'valid' && ambiguous ? 'correctable' : args.verdict;
  return {
    verdict,
    address: selected && hasCoordinates(selected) ? resolvedAddress(selected, unit, country) : null,
    components,
    granularity: answerGranularity(reading, selected, components),
    action: nextAction(verdict, { unitGiven: unit !== undefined, listsUnits: listsUnits(selected), houseNumberMissing: components.houseNumber === 'missing' }),
    unresolved: [...args.unresolved],
    alternatives: others.filter(hasCoordinates).map((c) => ({ address: resolvedAddress(c, unit, country), confidence: c.confidence })),
  };
}

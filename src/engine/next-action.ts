import type { NextAction, Verdict } from '../contract/enums.js';

/**
 * `action` (issue 27, DESIGN §3; docs/answer.md): what a checkout does next, from the verdict:
 * `accept` a valid address, `confirm` a correctable one (show what changed, or the alternatives),
 * `fix` an invalid one; `add_unit` instead of `accept` when the house is valid but the data lists
 * two or more units for it and none was given. A house number the data requires and the input
 * lacks (`houseNumber: missing`) is `fix` whatever the verdict: no result can choose the house for
 * the customer (issue 34).
 */
export function nextAction(verdict: Verdict, house: { unitGiven: boolean; listsUnits: boolean; houseNumberMissing?: boolean }): NextAction {
  if (verdict === 'invalid' || house.houseNumberMissing) return 'fix';
  if (verdict === 'correctable') return 'confirm';
  return house.listsUnits && !house.unitGiven ? 'add_unit' : 'accept';
}

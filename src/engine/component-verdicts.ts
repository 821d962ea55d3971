import type { AddressComponents, ComponentVerdicts, VerdictField } from '../contract/address.js';
import { VERDICT_FIELDS } from '../contract/address.js';
import { compareComponent, requiredComponents } from '../address/compare.js';

/**
 * Per-field verdicts of a result against the input (SPEC "ComponentVerdicts"; keys only for checked fields):
 * both have it → compareComponent; input has it, result not → `not-checked`;
 * input lacks a field the country requires and the result supplies it → `missing`; otherwise no key.
 */
export function componentVerdicts(input: AddressComponents, result: AddressComponents, country: string | undefined): ComponentVerdicts {
  const required = new Set<VerdictField>(requiredComponents(country));
  const verdicts: ComponentVerdicts = {};
  for (const field of VERDICT_FIELDS) {
    const given = present(input[field]);
    const found = present(result[field]);
    if (given && found) verdicts[field] = compareComponent(field, given, found, country);
    else if (given) verdicts[field] = 'not-checked';
    else if (found && required.has(field)) verdicts[field] = 'missing';
  }
  return verdicts;
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

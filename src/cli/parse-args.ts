import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { parseExactHttpsOrigin } from '../accounts/origins.js';
import { PlanId, Environment } from '../contract/enums.js';

/** Argument parsers: bad input fails before anything is written. */
export function planArg(value: string): PlanId {
  const parsed = PlanId.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`unknown plan "${value}" (one of ${PlanId.options.join(', ')})`);
  return parsed.data;
}

export function envArg(value: string): Environment {
  const parsed = Environment.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`unknown environment "${value}" (live or test)`);
  return parsed.data;
}

export function intArg(min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a whole number`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${n} is outside ${min}-${max}`);
    return n;
  };
}

/** Repeatable `--origin`: each one an exact HTTPS origin written canonically, as the token store demands. */
export function collectOrigin(value: string, previous: string[] = []): string[] {
  if (parseExactHttpsOrigin(value) !== value) {
    throw new InvalidArgumentError('not an exact HTTPS origin (expected https://host[:port], no path, no wildcard, no trailing slash)');
  }
  return [...previous, value];
}

export function emailArg(value: string): string {
  if (!z.email().safeParse(value.trim()).success) throw new InvalidArgumentError(`"${value}" is not an email address`);
  return value.trim();
}

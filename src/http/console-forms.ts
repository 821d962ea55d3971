import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/passwords.js';
import { Environment } from '../contract/enums.js';

/**
 * The console's HTML forms (application/x-www-form-urlencoded), one Zod schema each: the
 * request check and the handler's types. Every state-changing form carries `csrf`. Text the
 * database cannot store is refused for every field before these run (console-inputs.ts).
 */
const csrf = z.string().max(100);
const name = z.string().trim().min(1, 'Give the key a name').max(100, 'A name has at most 100 characters');
const password = z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH);

export const CsrfForm = z.object({ csrf });

export const LoginForm = z.object({
  csrf,
  email: z.string().trim().min(1, 'Enter your email').max(254),
  password,
  next: z.string().max(200).optional(),
});

export const SignupForm = z.object({
  csrf,
  email: z.string().trim().max(254).pipe(z.email('Enter a valid email address')),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters`),
  project: z.string().trim().max(100, 'A project name has at most 100 characters').optional(),
  invite: z.string().max(100).optional(),
});

export const CreateKeyForm = z.object({ csrf, name, env: Environment });
export const RenameKeyForm = z.object({ csrf, name });
export const PasswordForm = z.object({ csrf, password });

/** Origins one per line (commas and spaces also separate them); each is checked by the token store. */
const originList = z
  .string()
  .max(10_000)
  .transform((text) => text.split(/[\s,]+/).filter((o) => o.length > 0));

export const CreateTokenForm = z.object({ csrf, origins: originList, env: Environment });
export const OriginsForm = z.object({ csrf, origins: originList });
export const SwitchAccountForm = z.object({ csrf, account: z.string().min(1).max(100) });

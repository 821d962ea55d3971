import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { emailArg } from '../parse-args.js';

/** The console's sign-up address for an invite code (PUBLIC_BASE_URL, else localhost on PORT). */
const inviteUrl = (ctx: CliContext, code: string) =>
  `${(ctx.config.PUBLIC_BASE_URL ?? `http://localhost:${ctx.config.PORT}`).replace(/\/$/, '')}/dashboard/signup?invite=${code}`;

function addInvite(command: Command, ctx: CliContext): void {
  command
    .description('invite a person into an account: a one-time sign-up link, good for 7 days (works with SIGNUP=closed)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'who may use it', emailArg)
    .action(async (opts: { account: string; email: string }) => {
      const { invites } = await ctx.stores('write');
      const invite = await invites.create(opts.account, opts.email);
      const url = inviteUrl(ctx, invite.code);
      ctx.out(
        { id: invite.id, accountId: invite.accountId, email: invite.email, code: invite.code, url, expiresAt: invite.expiresAt },
        [`invite for ${invite.email} to ${invite.accountId}, until ${invite.expiresAt} UTC:`, url],
      );
    });
}

/** `addressd invite` and its alias `addressd account invite`. */
export function registerInviteCommands(program: Command, ctx: CliContext): void {
  addInvite(program.command('invite'), ctx);
  const account = program.commands.find((c) => c.name() === 'account');
  if (account) addInvite(account.command('invite'), ctx);
}

import type { Command } from 'commander';
import type { Account } from '../../accounts/accounts.js';
import type { CliContext } from '../context.js';
import { intArg, planArg } from '../parse-args.js';

const accountJson = (a: Account) => ({
  id: a.id,
  plan: a.plan,
  name: a.name,
  extraCredits: a.extraCredits,
  validThreshold: a.thresholds.valid,
  correctableThreshold: a.thresholds.correctable,
  createdAt: a.createdAt,
});

const accountLines = (a: Account) => [
  `account ${a.id}${a.name ? ` (${a.name})` : ''}`,
  `  plan ${a.plan}, extra credits ${a.extraCredits}, thresholds valid ${a.thresholds.valid} / correctable ${a.thresholds.correctable}`,
];

export function registerAccountCommands(program: Command, ctx: CliContext): void {
  const account = program.command('account').description('manage accounts');
  account
    .command('create')
    .description('create an account')
    .option('--plan <plan>', 'free, starter, growth or scale', planArg, 'free')
    .option('--name <name>', 'display name')
    .option('--extra-credits <n>', 'purchased credits to start with', intArg(0, 1_000_000_000), 0)
    .option('--valid-threshold <n>', 'confidence for `valid` (0-100)', intArg(0, 100), 80)
    .option('--correctable-threshold <n>', 'confidence for `correctable` (0-100)', intArg(0, 100), 50)
    .action(async (opts: { plan: Account['plan']; name?: string; extraCredits: number; validThreshold: number; correctableThreshold: number }) => {
      if (opts.correctableThreshold > opts.validThreshold) {
        throw new Error('--correctable-threshold cannot exceed --valid-threshold');
      }
      const { accounts } = await ctx.stores('write');
      const created = await accounts.create({
        plan: opts.plan,
        ...(opts.name ? { name: opts.name } : {}),
        extraCredits: opts.extraCredits,
        validThreshold: opts.validThreshold,
        correctableThreshold: opts.correctableThreshold,
      });
      ctx.out(accountJson(created), accountLines(created));
    });
  account
    .command('show <id>')
    .description('show an account and its credits this month')
    .action(async (id: string) => {
      const { accounts, ledger } = await ctx.stores();
      const found = await accounts.get(id);
      const balance = await ledger.balance(id);
      ctx.out(
        { ...accountJson(found), quota: balance.quota, creditsUsedThisMonth: balance.usedThisMonth, creditsAvailable: balance.available },
        [...accountLines(found), `  this month: ${balance.usedThisMonth} used of ${balance.quota}, ${balance.available} available`],
      );
    });
  account
    .command('list')
    .description('list every account of this store')
    .action(async () => {
      const { accounts } = await ctx.stores();
      const all = await accounts.list();
      ctx.out(
        { accounts: all.map(accountJson) },
        all.length ? all.map((a) => `${a.id}  ${a.plan}  ${a.name ?? '-'}  created ${a.createdAt}`) : 'no accounts yet: create one with `account create`',
      );
    });
  // Arguments are parsed by commander before the action runs, so bad input never opens (or creates) the database.
  account
    .command('set-plan')
    .description('change the plan of an account')
    .argument('<id>', 'account id')
    .argument('<plan>', 'free, starter, growth or scale', planArg)
    .action(async (id: string, plan: Account['plan']) => {
      const { accounts } = await ctx.stores('write');
      const updated = await accounts.setPlan(id, plan);
      ctx.out(accountJson(updated), accountLines(updated));
    });

  program
    .command('credits')
    .description('manage purchased extra credits')
    .command('add')
    .description('add purchased extra credits (kept across months, spent after the monthly grant)')
    .argument('<id>', 'account id')
    .argument('<n>', 'credits to add', intArg(1, 1_000_000_000))
    .action(async (id: string, amount: number) => {
      const { accounts } = await ctx.stores('write');
      const updated = await accounts.addExtraCredits(id, amount);
      ctx.out(accountJson(updated), accountLines(updated));
    });
}

import type { Command } from 'commander';
import type { Environment } from '../../contract/enums.js';
import type { SecretKeyInfo } from '../../accounts/secret-keys.js';
import type { TokenInfo } from '../../accounts/publishable-tokens.js';
import type { CliContext } from '../context.js';
import { collectOrigin, envArg } from '../parse-args.js';

const keyJson = (k: SecretKeyInfo) => ({
  id: k.id,
  accountId: k.accountId,
  env: k.env,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
});
const keyLine = (k: SecretKeyInfo) =>
  `${k.id}  ${k.env}  ${k.prefix}  ${k.name ?? '-'}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`;

const tokenJson = (t: TokenInfo) => ({
  id: t.id,
  accountId: t.accountId,
  token: t.token,
  env: t.env,
  origins: t.origins,
  createdAt: t.createdAt,
  revokedAt: t.revokedAt,
});
const tokenLine = (t: TokenInfo) =>
  `${t.id}  ${t.env}  ${t.token}  ${t.origins.join(' ')}  ${t.revokedAt ? `revoked ${t.revokedAt}` : 'active'}`;

export function registerKeyCommands(program: Command, ctx: CliContext): void {
  const key = program.command('key').description('manage secret API keys');
  key
    .command('create')
    .description('create a secret key (shown now; re-reveal later with `key reveal`)')
    .requiredOption('--account <id>', 'account id')
    .option('--env <env>', 'live or test', envArg, 'live')
    .option('--name <name>', 'a name to recognise it by')
    .action(async (opts: { account: string; env: Environment; name?: string }) => {
      const { secretKeys } = await ctx.stores('write');
      const created = await secretKeys.create(opts.account, opts.env, opts.name);
      ctx.out({ id: created.id, key: created.key, env: created.env, name: created.name }, [`${created.id}  ${created.env}`, created.key]);
    });
  key
    .command('list')
    .description('list the secret keys of an account (masked)')
    .requiredOption('--account <id>', 'account id')
    .action(async (opts: { account: string }) => {
      const { secretKeys, accounts } = await ctx.stores();
      await accounts.get(opts.account);
      const keys = await secretKeys.list(opts.account);
      ctx.out({ keys: keys.map(keyJson) }, keys.length ? keys.map(keyLine) : 'no keys');
    });
  key
    .command('reveal <keyId>')
    .description('show a secret key in full again')
    .action(async (keyId: string) => {
      const { secretKeys } = await ctx.stores();
      const revealed = await secretKeys.reveal(keyId);
      ctx.out(revealed, revealed.key);
    });
  key
    .command('rename <keyId> <name>')
    .description('rename a secret key')
    .action(async (keyId: string, name: string) => {
      const { secretKeys } = await ctx.stores('write');
      const renamed = await secretKeys.rename(keyId, name);
      ctx.out(keyJson(renamed), keyLine(renamed));
    });
  key
    .command('revoke <keyId>')
    .description('revoke a secret key: it stops working at once')
    .action(async (keyId: string) => {
      const { secretKeys } = await ctx.stores('write');
      const revoked = await secretKeys.revoke(keyId);
      ctx.out(keyJson(revoked), keyLine(revoked));
    });
}

export function registerTokenCommands(program: Command, ctx: CliContext): void {
  const token = program.command('token').description('manage publishable widget tokens');
  token
    .command('create')
    .description('create a publishable token for exact HTTPS origins')
    .requiredOption('--account <id>', 'account id')
    .option('--env <env>', 'live or test', envArg, 'live')
    .requiredOption('--origin <origin>', 'an exact HTTPS origin (repeatable)', collectOrigin)
    .action(async (opts: { account: string; env: Environment; origin: string[] }) => {
      const { tokens } = await ctx.stores('write');
      const created = await tokens.create(opts.account, opts.env, opts.origin);
      ctx.out({ id: created.id, token: created.token, env: created.env, origins: created.origins }, tokenLine(created));
    });
  token
    .command('list')
    .description('list the publishable tokens of an account with their origins')
    .requiredOption('--account <id>', 'account id')
    .action(async (opts: { account: string }) => {
      const { tokens, accounts } = await ctx.stores();
      await accounts.get(opts.account);
      const list = await tokens.list(opts.account);
      ctx.out({ tokens: list.map(tokenJson) }, list.length ? list.map(tokenLine) : 'no tokens');
    });
  token
    .command('revoke <tokenId>')
    .description('revoke a publishable token: the widget stops working with it at once')
    .action(async (tokenId: string) => {
      const { tokens } = await ctx.stores('write');
      const revoked = await tokens.revoke(tokenId);
      ctx.out(revoked, `${revoked.id} revoked ${revoked.revokedAt}`);
    });
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { createLogger } from '../../lib/logger.js';
import { DEFAULT_WIDGET_DIR } from '../../http/routes/widget-assets.js';
import { createServices } from '../../services.js';
import type { CliContext } from '../context.js';
import { intArg } from '../parse-args.js';
import { describeStore } from '../store-info.js';
import { DEMO_ACCOUNT_NAME } from '../widget-demo/account.js';

interface DemoFlags {
  account?: string;
  host: string;
  port: number;
  country?: string;
}

/** `widget-demo [--account ID] [--host localhost] [--port 8443]`: the widget on a local HTTPS page, until Ctrl-C. */
export function registerWidgetDemoCommand(program: Command, ctx: CliContext): void {
  program
    .command('widget-demo')
    .description('try the address widget locally: serves the service and a test page over HTTPS (self-signed) with a test token for that origin')
    .option('--account <id>', `account of the test token (default: the account named "${DEMO_ACCOUNT_NAME}", created when missing)`)
    .option('--host <host>', 'host name of the page', 'localhost')
    .option('--port <port>', 'HTTPS port (0 picks a free one)', intArg(0, 65535), 8443)
    .option('--country <cc>', 'bias suggestions to one ISO country (data-country)')
    .action(async (flags: DemoFlags) => {
      // The hosted widget is bundled by `npm start`; a CLI-only checkout may not have it yet.
      if (!existsSync(path.join(DEFAULT_WIDGET_DIR, 'manifest.json'))) {
        const { buildWidget } = await import('../../../scripts/build-widget.js');
        await buildWidget();
      }
      ctx.note(`store: ${describeStore(ctx.config)}`);
      // Loaded here, not at start: certificate generation and the HTTPS server only this command needs.
      const { demoCertificate } = await import('../widget-demo/certificate.js');
      const { startWidgetDemo } = await import('../widget-demo/server.js');
      const certificate = await demoCertificate(ctx.config.DATA_DIR, flags.host);
      const services = await createServices(ctx.config, { logger: createLogger('warn') });
      const demo = await startWidgetDemo(services, {
        host: flags.host,
        port: flags.port,
        certificate,
        ...(flags.account ? { accountId: flags.account } : {}),
        ...(flags.country ? { country: flags.country.toUpperCase() } : {}),
      }).catch(async (error: unknown) => {
        await services.close();
        throw error;
      });
      ctx.out({ url: demo.url, origin: demo.origin, token: demo.token, accountId: demo.accountId, createdAccount: demo.createdAccount }, [
        `widget demo: ${demo.url}`,
        `  the certificate is self-signed (${path.resolve(ctx.config.DATA_DIR, 'widget-demo', 'cert.pem')}): your browser asks once whether to proceed`,
        `  test token ${demo.token} allows only ${demo.origin}, on account ${demo.accountId}${demo.createdAccount ? ` (created: "${DEMO_ACCOUNT_NAME}")` : ''}`,
        `  providers: ${services.runner.active().join(', ') || 'none'} (PROVIDERS); Ctrl-C stops`,
      ]);
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      await demo.close();
      await services.close();
    });
}

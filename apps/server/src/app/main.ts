import { ConfigError, loadConfig } from '../platform/config';
import { DirectoryLockedError } from '../platform/db/directory-lock';
import { EmbeddedPostgresError, LegacyDataDirectoryError } from '../platform/db/embedded-postgres';
import { startServer } from './server';

const USAGE = 'Usage: npm start [-- --demo]\n  --demo  seed a demo tenant with one user of every role and print their passwords';

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--demo');
  if (args.includes('--help') || unknown.length > 0) {
    console.error(unknown.length > 0 && !args.includes('--help') ? `Unknown argument ${unknown[0]}.\n${USAGE}` : USAGE);
    process.exit(args.includes('--help') ? 0 : 1);
  }
  let server;
  try {
    server = await startServer(loadConfig(), { demo: args.includes('--demo') });
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof DirectoryLockedError ||
      error instanceof LegacyDataDirectoryError ||
      error instanceof EmbeddedPostgresError
    ) {
      // An operator mistake, not a crash: say what to fix, without a stack trace.
      console.error(`Pakt cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal} received, shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();

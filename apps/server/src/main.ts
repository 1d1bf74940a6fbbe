import { ConfigError, loadConfig } from './config';
import { DirectoryLockedError } from './db/directory-lock';
import { startServer } from './server';

async function main() {
  let server;
  try {
    server = await startServer(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DirectoryLockedError) {
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

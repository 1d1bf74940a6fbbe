/**
 * `npm run db:convert-pglite -- [DATA_DIR]`: converts the database of an earlier Pakt (embedded
 * PGlite) in DATA_DIR/db for the embedded PostgreSQL, with the server stopped. Without an
 * argument: DATA_DIR, else the repository's ./data. See convert-pglite.ts.
 */
import { PgliteConversionError, convertPgliteDataDirectory, resolveDataDirectory } from './convert-pglite';

const USAGE = `Usage: npm run db:convert-pglite -- [DATA_DIR]

Converts the database an earlier Pakt kept in DATA_DIR/db (embedded PGlite) into a PostgreSQL
directory for this Pakt. Run it once, with the server stopped. The PGlite directory is kept as
DATA_DIR/db.pglite-backup and the SQL dump as DATA_DIR/db.pglite-dump.sql; nothing is deleted.
DATA_DIR defaults to the DATA_DIR variable, else ./data in the repository.`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.length > 1 || argv.some((arg) => arg.startsWith('-'))) {
    console.error(USAGE);
    return 2;
  }
  const dataDir = resolveDataDirectory(argv[0]);
  console.log(`Data directory: ${dataDir}`);
  try {
    await convertPgliteDataDirectory({ dataDir, log: (line) => console.log(line) });
    return 0;
  } catch (error) {
    console.error(error instanceof PgliteConversionError ? `\n${error.message}` : error);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));

import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and applied by the server at start, on PGlite and
// PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
